/** Host operations: what the tools, the console and in-process extensions invoke on workspaces. */
export { boundCounted, takeBounded, type Bounded } from './bounded.js';
export { assertMutable, assertSnapshot, requireActive } from './guards.js';
export { diagnostics, findReferences, findSymbols, readDocument, type DocumentText, type Location, type ReferenceItem, type SymbolItem } from './queries.js';
export { DEFAULT_MAX_DIFF_CHARS, TransactionService, type CommitResult, type PreviewResult, type ReviewResult, type StageResult, type TransactionServiceDeps } from './transaction-service.js';
export { workspaceView } from './views.js';
