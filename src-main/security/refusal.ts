/**
 * The one shape every security check answers with when it says no: an HTTP status the caller
 * writes as is, plus a stable code and a human message for the structured error body.
 */
import type { ErrorCode } from '../contracts/index.js';

export interface Refusal<Status extends number = number, Code extends ErrorCode = ErrorCode> {
  ok: false;
  status: Status;
  code: Code;
  message: string;
}

export function refuse<Status extends number, Code extends ErrorCode>(status: Status, code: Code, message: string): Refusal<Status, Code> {
  return { ok: false, status, code, message };
}
