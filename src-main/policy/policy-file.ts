/** The approval policy file: read and validated at start, replaced atomically (temp file + fsync + rename) on save. */
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { replaceDurably } from '../recovery/index.js';
import { JunctionError } from '../contracts/index.js';
import type { PolicyDocument } from '../contracts/index.js';
import type { PolicyPersistence } from './policy-store.js';
import { parsePolicyText } from './rules.js';

export async function loadPolicyFile(path: string): Promise<PolicyDocument> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new JunctionError('PolicyInvalid', `approval-policy ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); create it, e.g. {"rules":[]}.`);
  }
  return parsePolicyText(text, `approval-policy ${path}`);
}

export function policyFilePersistence(path: string): PolicyPersistence {
  return {
    async save(text) {
      const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
      try {
        await replaceDurably(path, text, temp);
      } catch (error) {
        // The policy file itself is untouched; only a partial temp file may be left to remove.
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}
