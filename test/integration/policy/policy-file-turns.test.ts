/**
 * The policy file's watcher and its saves take turns: a watcher's read that began before a save
 * renamed the new text into place must not come back after it as an "outside edit" of the older text,
 * which would put back the policy the save had just replaced (an undone "always allow" reappearing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyFile } from '../../../src-main/policy/policy-file.js';

test('a check racing a save never reports the text the save replaced as an outside edit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-policy-turns-'));
  const path = join(dir, 'policy.json');
  // Large enough that a read takes a while, so the two reads overlap in the thread pool.
  const text = (n: number) => JSON.stringify({ rules: [{ tool: `tool-${n}`, action: 'ask', reason: 'r'.repeat(20_000) }] });
  writeFileSync(path, text(0));
  const edits: string[] = [];
  const file = new PolicyFile(path, {
    text: text(0),
    onOutsideEdit: (edit) => {
      edits.push('text' in edit ? (JSON.parse(edit.text) as { rules: Array<{ tool: string }> }).rules[0]!.tool : edit.error.message);
      file.settled();
    },
  });
  try {
    for (let n = 1; n <= 100; n++) await Promise.all([file.check(), file.save(text(n))]);
    assert.deepEqual(edits, [], 'Junction took its own earlier writes for outside edits');
    assert.equal(readFileSync(path, 'utf8'), text(100));
  } finally {
    file.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
