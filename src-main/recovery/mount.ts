/**
 * The recovery room as a part of a running Junction: takes the state-directory lock, completes or
 * reverts what a crash interrupted, and offers the console its view and the `recover` command. The
 * lock is released when the part is disposed.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ControlCommandHandlers, RecoveryView } from '../contracts/index.js';
import { createJournal, type Journal } from './journal.js';

export interface RecoveryMountContext {
  stateDir: string;
  logger: { warn(message: string): void };
}

export interface MountedRecovery {
  journal: Journal;
  views: { recovery(): RecoveryView };
  commands: ControlCommandHandlers<'recover'>;
  dispose(): Promise<void>;
}

export async function mountRecovery(context: RecoveryMountContext): Promise<MountedRecovery> {
  const journal = createJournal({ stateDir: join(context.stateDir, 'recovery'), instanceId: randomUUID() });
  const report = await journal.open();
  for (const entry of report.entries) context.logger.warn(`recovery: ${entry.outcome} ${entry.manifestPath}: ${entry.detail}`);
  return {
    journal,
    views: { recovery: () => journal.status() },
    commands: {
      recover: async () => {
        await journal.recover();
        return journal.status();
      },
    },
    dispose: () => journal.close(),
  };
}
