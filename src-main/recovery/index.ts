/** Public door of the recovery room: the durable commit journal (format 1) and its recovery report. */
export { createJournal, type Journal, type JournalOptions, type RecoveryReport, type BlockedWorkspace, type BlockingCode } from './journal.js';
export type { JournalHooks, HookInfo } from './commit-transaction.js';
export type { CommitRequest, CommitReceipt, FileChange } from './contract.js';
export type { StaleLock } from './state-dir/lock.js';
export { CURRENT_FORMAT_VERSION, SUPPORTED_FORMAT_VERSIONS, probeFormatVersion } from './persisted/index.js';
export { sha256 } from './checksum.js';
export { replaceDurably } from './durable-fs.js';
export { mountRecovery, type MountedRecovery, type RecoveryMountContext } from './mount.js';
