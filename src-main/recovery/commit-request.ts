/** Validation of commit requests crossing into the journal: shape, checksums and workspace-relative paths. */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { JunctionError } from '../contracts/index.js';
import { SHA256_PATTERN } from './checksum.js';
import type { CommitRequest } from './contract.js';

const sha256 = z.string().regex(SHA256_PATTERN, 'must be a lowercase hex SHA-256');
const content = z.union([z.string(), z.instanceof(Uint8Array)]);

const FileChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('write'), path: z.string().min(1), content, expectedBeforeSha256: sha256.nullable() }),
  z.object({ kind: z.literal('delete'), path: z.string().min(1), expectedBeforeSha256: sha256 }),
]);

const CommitRequestSchema = z.object({
  transactionId: z.string().min(1),
  workspaceRoot: z.string().min(1),
  changes: z.array(FileChangeSchema).min(1),
});

/** Why a path is not a plain workspace-relative POSIX path, or null when it is. */
export function pathProblem(path: string): string | null {
  if (path.includes('\0')) return 'contains a NUL character';
  if (path.includes('\\')) return 'contains a backslash; use POSIX separators';
  if (path.startsWith('/') || isAbsolute(path)) return 'is absolute';
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'has an empty, "." or ".." segment';
  return null;
}

export function validateCommitRequest(input: unknown): CommitRequest {
  const parsed = CommitRequestSchema.safeParse(input);
  if (!parsed.success) {
    throw new JunctionError('ValidationFailed', `Invalid commit request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '$'}: ${i.message}`).join('; ')}`, {
      details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    });
  }
  const request = parsed.data as CommitRequest;
  if (!isAbsolute(request.workspaceRoot)) throw new JunctionError('ValidationFailed', `workspaceRoot must be absolute: ${request.workspaceRoot}`);
  const outside = request.changes.flatMap((c) => {
    const problem = pathProblem(c.path);
    return problem ? [{ path: c.path, problem }] : [];
  });
  if (outside.length > 0) {
    throw new JunctionError('PathOutsideWorkspace', `Paths must be workspace-relative POSIX paths: ${outside.map((o) => `${o.path} ${o.problem}`).join('; ')}`, { details: { files: outside } });
  }
  const seen = new Set<string>();
  const duplicates = request.changes.map((c) => c.path).filter((p) => (seen.has(p) ? true : (seen.add(p), false)));
  if (duplicates.length > 0) throw new JunctionError('ValidationFailed', `A commit may change each path once: ${[...new Set(duplicates)].join(', ')}`, { details: { duplicates } });
  return request;
}
