/**
 * The live policy as Junction runs it: the store, fed by the watched policy file when one is configured,
 * and the operator notice an outside edit that cannot be loaded raises.
 */
import { randomUUID } from 'node:crypto';
import type { JunctionError, OperatorNotice } from '../contracts/index.js';
import { PolicyFile } from './policy-file.js';
import { PolicyStore } from './policy-store.js';

export interface OpenPolicy {
  store: PolicyStore;
  close(): void;
}

/** Reads and validates the file (a `PolicyInvalid` stops the start) and starts watching it; null: no policy, everything allowed. */
export async function openPolicy(path: string | null): Promise<OpenPolicy> {
  if (path === null) return { store: new PolicyStore({ path: null, document: { rules: [] } }), close: () => undefined };
  // The file tells of outside edits only once it watches or saves, by when the store exists.
  const { file, document } = await PolicyFile.open(path, (edit) => void store.outsideEdit(edit).finally(() => file.settled()));
  const store = new PolicyStore({ path, document, persistence: file });
  file.watch();
  return { store, close: () => file.close() };
}

/** What the console shows when an outside edit of the policy file was refused. */
export function refusedEditNotice(problem: JunctionError, now: number): OperatorNotice {
  return {
    id: randomUUID(),
    level: 'warning',
    title: 'Policy file edit not loaded',
    message: `${problem.message}. The policy in force is unchanged; saves from the console wait until the file is fixed.`,
    subject: { kind: 'policy', id: 'approval-policy', label: 'approval policy file' },
    at: now,
  };
}
