/**
 * A mutation tool's only output: the complete new text of each changed document (or its deletion) and a
 * one-line summary. The host validates the candidate and stages it through the active transaction.
 */
export type CandidateChange =
  | { readonly kind: 'write'; readonly path: string; readonly text: string }
  | { readonly kind: 'delete'; readonly path: string };

export interface MutationResult {
  readonly candidate: readonly CandidateChange[];
  readonly summary: string;
}
