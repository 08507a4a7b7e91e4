/** The human-readable text of anything thrown: an Error's message, or the thrown value's string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
