/** Checks the console e2e tests make of a page: axe-core's serious findings, horizontal overflow, notices that cover content. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core's serious and critical violations on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the console's strict CSP (script-src 'self') does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE_SCRIPT, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** How far the view panel (or the page) scrolls sideways: 0 when everything fits its width. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const main = document.getElementById('view-panel');
    const page = document.scrollingElement;
    return Math.max(main ? main.scrollWidth - main.clientWidth : 0, page ? page.scrollWidth - page.clientWidth : 0);
  });
}

/** Elements matching `selector` that a notice overlaps: notices must sit beside the content, never on it. */
export async function coveredByNotices(page: Page, selector = '#view-panel'): Promise<string[]> {
  return page.evaluate((sel) => {
    const notices = [...document.querySelectorAll<HTMLElement>('[data-testid="notice"]')].map((n) => n.getBoundingClientRect());
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const r = el.getBoundingClientRect();
      for (const n of notices) if (n.left < r.right && n.right > r.left && n.top < r.bottom && n.bottom > r.top) out.push(`${sel} at ${Math.round(r.top)}..${Math.round(r.bottom)} under a notice at ${Math.round(n.top)}..${Math.round(n.bottom)}`);
    }
    return out;
  }, selector);
}

/** The two window sizes the console is checked at (issue 24). */
export const CHECKED_SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/** A screenshot at each checked size (`<path>-<w>x<h>.png`) and axe-core's serious findings at each, one line each. */
export async function shootSizes(page: Page, path: string): Promise<string[]> {
  const findings: string[] = [];
  for (const size of CHECKED_SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${path}-${size.width}x${size.height}.png` });
    for (const v of await seriousViolations(page)) findings.push(`${size.width}x${size.height}: ${v}`);
  }
  return findings;
}
