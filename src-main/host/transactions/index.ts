/** Transactions: pure domain of staged revisions over immutable snapshots. */
export { applyCandidate, composeOrigins, type AppliedCandidate, type CandidateChange } from './changes.js';
export { diffSnapshots, toFileDiffView, type FileDiff } from './diffs.js';
export { diagnosticsDelta } from './diagnostics-delta.js';
export { applyTextEdits, clipUtf16, lineStarts, resolveEdits, resolvePosition, toLineColumn, type Position, type TextEdit } from './text-edits.js';
export { Transaction, revisionView, type DiagnosticsDelta, type Revision, type TransactionState } from './transaction.js';
