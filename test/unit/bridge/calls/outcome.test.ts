import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseErrorKind, ResponseStatus, ResponseCallToolDataSchema } from '../../../../plugins/sdk/wire/index.js';
import { errorCodeOfReply, isNotExecuted, outcomeFromReply, replyFromEnvelope, type PluginReply } from '../../../../src-main/bridge/calls/index.js';
import { pluginReloadingOutcome } from '../../../../src-main/bridge/calls/outcome.js';

function errorReply(errorKind: ResponseErrorKind, httpStatusCode: number | undefined, message: string, extra: Partial<PluginReply> = {}): PluginReply {
  return { status: ResponseStatus.Error, content: [{ type: 'text', text: message }], errorKind, httpStatusCode, message, ...extra };
}

function errorOf(outcome: ReturnType<typeof outcomeFromReply>): { code: string; message: string } {
  return (outcome.result.structuredContent as { error: { code: string; message: string } }).error;
}

describe('failure kind mapping', () => {
  test('an explicit status wins over the kind; the kind decides otherwise', () => {
    assert.equal(errorCodeOfReply(ResponseErrorKind.BadRequest, 422), 'ToolFailed');
    assert.equal(errorCodeOfReply(ResponseErrorKind.BadRequest, undefined), 'InvalidArguments');
    assert.equal(errorCodeOfReply(ResponseErrorKind.BadRequest, 400), 'InvalidArguments');
    assert.equal(errorCodeOfReply(ResponseErrorKind.NotFound, undefined), 'ToolNotFound');
    assert.equal(errorCodeOfReply(ResponseErrorKind.Conflict, undefined), 'Conflict');
    assert.equal(errorCodeOfReply(ResponseErrorKind.Timeout, undefined), 'ToolTimeout');
    assert.equal(errorCodeOfReply(ResponseErrorKind.Unavailable, undefined), 'PluginUnavailable');
    assert.equal(errorCodeOfReply(ResponseErrorKind.Internal, undefined), 'InternalError');
    assert.equal(errorCodeOfReply(ResponseErrorKind.None, 503), 'PluginUnavailable');
    assert.equal(errorCodeOfReply(ResponseErrorKind.None, 502), 'InternalError');
    assert.equal(errorCodeOfReply(ResponseErrorKind.None, 418), 'InvalidArguments');
  });
});

describe('outcomes', () => {
  test("a thrown failure from an 8.14+ plugin keeps the tool's own message (the HTTP API adds its form)", () => {
    const outcome = outcomeFromReply('add-object', errorReply(ResponseErrorKind.BadRequest, 422, 'no such layer'), true);
    assert.equal(outcome.error?.kind, 'thrown');
    assert.equal(outcome.result.isError, true);
    assert.deepEqual(errorOf(outcome), { code: 'ToolFailed', message: 'no such layer' });
  });

  test('an internal failure maps to 500 and a binding failure to 400, both with the message as sent', () => {
    const internal = outcomeFromReply('t', errorReply(ResponseErrorKind.Internal, undefined, 'NullReference'), true);
    assert.equal(internal.error?.kind, 'internal');
    assert.equal(errorOf(internal).message, 'NullReference');
    const binding = outcomeFromReply('t', errorReply(ResponseErrorKind.BadRequest, 400, 'x must be a number'), true);
    assert.equal(binding.error?.kind, 'binding');
    assert.deepEqual(errorOf(binding), { code: 'InvalidArguments', message: 'x must be a number', next: { kind: 'fixArguments', tools: ['t'] } });
  });

  test("an 8.0-era plugin's error is not rewritten and keeps its own content", () => {
    const outcome = outcomeFromReply('t', errorReply(ResponseErrorKind.Internal, undefined, 'boom'), false);
    assert.equal(outcome.error?.kind, 'internal');
    assert.equal(errorOf(outcome).message, 'boom');
    assert.deepEqual(outcome.result.content, [{ type: 'text', text: 'boom' }]);
  });

  test('success keeps content and structured content; a non-object structured value is wrapped', () => {
    const envelope = ResponseCallToolDataSchema.parse({
      requestId: 'r',
      status: 1,
      value: { requestId: 'r', status: 'Success', content: [{ type: 'text', text: 'hi', annotations: null }], structuredContent: { a: 1 } },
    });
    const outcome = outcomeFromReply('t', replyFromEnvelope(envelope), true);
    assert.equal(outcome.error?.kind, undefined);
    assert.deepEqual(outcome.result, { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } });
    const wrapped = outcomeFromReply('t', { status: ResponseStatus.Success, content: [], structuredContent: [1, 2], errorKind: 0, message: '' }, true);
    assert.deepEqual(wrapped.result.structuredContent, { result: [1, 2] });
    assert.deepEqual(wrapped.result.content, [{ type: 'text', text: '[1,2]' }]);
  });

  test('an error on the envelope alone (no value) is still an error', () => {
    const envelope = ResponseCallToolDataSchema.parse({ requestId: 'r', status: 0, message: 'Tool not found', errorKind: 'NotFound' });
    const outcome = outcomeFromReply('t', replyFromEnvelope(envelope), true);
    assert.equal(outcome.error?.kind, 'notFound');
    assert.equal(errorOf(outcome).message, 'Tool not found');
  });
});

describe('not executed', () => {
  test('notExecuted, or an Unavailable reload-gate refusal, may be sent again; other failures may not', () => {
    assert.equal(isNotExecuted(errorReply(ResponseErrorKind.Unavailable, 503, 'compiling', { notExecuted: true })), true);
    assert.equal(isNotExecuted(errorReply(ResponseErrorKind.Unavailable, 503, 'Scripts are reloading; this call was not run.')), true);
    assert.equal(isNotExecuted(errorReply(ResponseErrorKind.Unavailable, 503, 'compiling')), false);
    assert.equal(isNotExecuted(errorReply(ResponseErrorKind.BadRequest, 422, 'this call was not run')), false);
  });

  test('the reload answer is 503 PluginReloading: "[plugin_reloading]" first, the tool message last', () => {
    const outcome = pluginReloadingOutcome('compile', errorReply(ResponseErrorKind.Unavailable, 503, 'Editor is compiling.'), 2_000);
    assert.equal(outcome.error?.kind, 'unavailable');
    const error = errorOf(outcome);
    assert.equal(error.code, 'PluginReloading');
    assert.ok(error.message.startsWith('[plugin_reloading]'));
    assert.ok(error.message.endsWith('Editor is compiling.'));
  });
});

describe('8.x plugins over HTTP (McpPlugin.Server DirectHttpErrorMapper)', () => {
  test('an explicit HttpStatusCode from 400 to 599 wins; otherwise the ErrorKind decides; guarded plugins keep the kind table', () => {
    const status = (kind: ResponseErrorKind, code?: number) => outcomeFromReply('t', errorReply(kind, code, 'm'), false).error?.pluginStatus;
    assert.equal(status(ResponseErrorKind.BadRequest, 451), 451);
    assert.equal(status(ResponseErrorKind.Internal, 302), 500, 'a status outside 400–599 is not an error status');
    assert.equal(status(ResponseErrorKind.BadRequest), 400);
    assert.equal(status(ResponseErrorKind.NotFound), 404);
    assert.equal(status(ResponseErrorKind.Conflict), 409);
    assert.equal(status(ResponseErrorKind.Timeout), 504);
    assert.equal(status(ResponseErrorKind.Unavailable), 503);
    assert.equal(status(ResponseErrorKind.Internal), 500);
    assert.equal(outcomeFromReply('t', errorReply(ResponseErrorKind.BadRequest, 451, 'm'), true).error?.pluginStatus, undefined);
  });
});
