/**
 * The one shape every security check answers with when it says no: a stable code and a human message
 * for the structured error body, and the HTTP status the one error table gives that code, which the
 * caller writes as is.
 */
import { httpStatusOf, type ErrorCode } from '../contracts/index.js';

export interface Refusal<Code extends ErrorCode = ErrorCode> {
  ok: false;
  status: number;
  code: Code;
  message: string;
}

export function refuse<Code extends ErrorCode>(code: Code, message: string): Refusal<Code> {
  return { ok: false, status: httpStatusOf({ code }), code, message };
}
