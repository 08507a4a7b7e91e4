/** The approval policy file: read and validated at start, replaced atomically (temp file + fsync + rename) on save. */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { replaceDurably } from '../recovery/index.js';
import { JunctionError } from '../shared/errors.js';
import type { PolicyDocument } from '../control/api.js';
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
    save: (text) => replaceDurably(path, text, join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`)),
  };
}
