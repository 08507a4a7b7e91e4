/** Debian's Chromium driven by playwright-core; never a downloaded browser build. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CONSOLE_BUNDLE_DIR } from '../../../src-main/app/paths.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Why a test of the console served from src-renderer/dist is skipped, or false. Only a machine without
 * Chromium skips: `npm test` builds the bundle before any test runs, so a missing bundle is a failure
 * (a test that rebuilt it in place once emptied it under the others, which then skipped silently).
 */
export function consoleE2eSkip(): string | false {
  if (!chromiumAvailable()) return `needs Chromium at ${CHROMIUM_PATH}`;
  if (!existsSync(join(CONSOLE_BUNDLE_DIR, 'index.html'))) throw new Error(`The console bundle is not built at ${CONSOLE_BUNDLE_DIR}: run npm run build:renderer (npm test does it first).`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Collects console errors and warnings and uncaught page errors: a view must render without any. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** Opens the console at `url` in a new page and waits until its event stream is live; errors are collected from the first load on. */
export async function openLiveConsole(context: BrowserContext, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
  return { page, errors };
}
