/** The 200-file transaction the crash test commits: modifications, creations and deletions, all small. */
import type { CommitRequest, FileChange } from '../../../src-main/recovery/index.js';
import { sha256 } from '../../../src-main/recovery/index.js';

export const FILE_COUNT = 200;
const CREATE_FROM = 170;
const DELETE_FROM = 185;

export function pathOf(i: number): string {
  return `src/dir${i % 7}/file-${i}.txt`;
}

/** Content before the commit; null when the file does not exist yet. */
export function oldContent(i: number): string | null {
  return i >= CREATE_FROM && i < DELETE_FROM ? null : `old content of file ${i}\n`;
}

/** Content after the commit; null when the commit deletes the file. */
export function newContent(i: number): string | null {
  return i >= DELETE_FROM ? null : `new content of file ${i}, a little longer than before\n`;
}

export function crashTransaction(workspaceRoot: string): CommitRequest {
  const changes: FileChange[] = [];
  for (let i = 0; i < FILE_COUNT; i++) {
    const before = oldContent(i);
    const after = newContent(i);
    const expectedBeforeSha256 = before === null ? null : sha256(before);
    if (after === null) changes.push({ kind: 'delete', path: pathOf(i), expectedBeforeSha256: expectedBeforeSha256! });
    else changes.push({ kind: 'write', path: pathOf(i), content: after, expectedBeforeSha256 });
  }
  return { transactionId: 'crash-transaction', workspaceRoot, changes };
}

export function treeOf(pick: (i: number) => string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < FILE_COUNT; i++) {
    const content = pick(i);
    if (content !== null) out[pathOf(i)] = content;
  }
  return out;
}
