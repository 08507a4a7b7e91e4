import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOST_MODES } from '../../../src-main/host/index.js';
import { canonical, catalogue } from './catalogue.js';

const BASELINES = join(import.meta.dirname, '../../baselines');
const update = process.env.UPDATE_BASELINES === '1';

describe('tools/list baselines per mode', () => {
  for (const mode of HOST_MODES) {
    for (const publication of ['publish', 'omit'] as const) {
      test(`${mode} / ${publication} matches test/baselines/tools-${mode}-${publication}.json`, async () => {
        const tools = [...catalogue(mode, publication)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const text = `${JSON.stringify(canonical(tools), null, 2)}\n`;
        const file = join(BASELINES, `tools-${mode}-${publication}.json`);
        if (update) await writeFile(file, text);
        assert.equal(text, await readFile(file, 'utf8'), `catalogue changed; if intended, rerun with UPDATE_BASELINES=1 and review the diff`);
      });
    }
  }
});
