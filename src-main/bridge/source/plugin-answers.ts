/**
 * A plugin's answer to a prompt, resource or completion request, or its failure, as a JunctionError
 * with a stable code: one mapping for the three, the ErrorKind rows shared with tool calls (calls/outcome.ts).
 */
import { ResponseStatus, type ResponseData } from '../../../plugins/sdk/wire/index.js';
import { JunctionError, type ErrorCode } from '../../contracts/index.js';
import { errorCodeOfKind, InvokeFailure } from '../calls/index.js';

/** Runs one request; no reply is `ToolTimeout`, `InternalError` (malformed) or `PluginUnavailable`. */
export async function askPlugin<T>(run: () => Promise<T>, what: string, timeoutMs: number): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InvokeFailure)) throw error;
    if (error.reason === 'timeout') throw new JunctionError('ToolTimeout', `The plugin did not answer for ${what} within ${timeoutMs} ms.`);
    if (error.reason === 'protocol') throw new JunctionError('InternalError', `The plugin answered malformed data for ${what}: ${error.message}`);
    throw new JunctionError('PluginUnavailable', `The plugin serving ${what} is not reachable: ${error.message}`);
  }
}

/** A failed envelope as a JunctionError: the plugin's ErrorKind decides the code, `notFound` being that of what was asked for. */
export function pluginFailure(envelope: ResponseData<unknown>, notFound: ErrorCode, what: string, detail?: string): JunctionError {
  const message = envelope.message || detail || `The plugin could not provide ${what}.`;
  return new JunctionError(errorCodeOfKind(envelope.errorKind, notFound), message);
}

/** The envelope's value, or its failure thrown. */
export function answerOf<T>(envelope: ResponseData<T>, notFound: ErrorCode, what: string): T {
  const value = envelope.value;
  if (envelope.status === ResponseStatus.Error || value === undefined || value === null) throw pluginFailure(envelope, notFound, what);
  return value;
}
