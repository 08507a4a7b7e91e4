/**
 * A tool result answered with the JSON the dispatcher already made of it. The SDK's Server parses every
 * tools/call result with CallToolResultSchema into a copy, which its transport then serialises again;
 * for a result that schema passes unchanged (same keys, same order, nothing stripped or defaulted) the
 * copy's JSON is the dispatcher's text, so the session transport splices that text into the response
 * instead. Any other result still goes through the schema.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { JsonText } from '../contracts/index.js';
import { concatText, isBase64, isBase64Checked, keysAre } from '../shared/index.js';

/** The dispatcher's JSON of each result handed to the SDK as it stands; weak, so an answered result's text goes with it. */
const serialised = new WeakMap<object, JsonText>();

/** CallToolResultSchema's keys, in its shape's order (after ResultSchema's `_meta`, which is declined). */
const RESULT_KEYS = ['content', 'structuredContent', 'isError'];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

const TEXT_KEYS = ['type', 'text'];

/** `{ type: 'text', text }`, keys in TextContentSchema's order and nothing else. */
function isPlainTextBlock(block: unknown): boolean {
  return isPlainObject(block) && block['type'] === 'text' && typeof block['text'] === 'string' && keysAre(block, TEXT_KEYS);
}

const MEDIA_KEYS = ['type', 'data', 'mimeType'];

/**
 * `{ type: 'image' | 'audio', data, mimeType }`, keys in ImageContentSchema's (and AudioContentSchema's)
 * order and nothing else, with data the schema's `atob` accepts: strict base64, checked here unless the
 * bridge already did (shared/base64.ts), so a screenshot is neither decoded nor copied.
 */
function isPlainMediaBlock(block: unknown): boolean {
  if (!isPlainObject(block) || (block['type'] !== 'image' && block['type'] !== 'audio') || typeof block['data'] !== 'string' || typeof block['mimeType'] !== 'string') return false;
  return keysAre(block, MEDIA_KEYS) && (isBase64Checked(block) || isBase64(block['data']));
}

const isPlainBlock = (block: unknown): boolean => isPlainTextBlock(block) || isPlainMediaBlock(block);

/** What `z.record(z.string(), z.unknown())` copies key for key: no symbol keys (refused) and no own `__proto__` (dropped). */
function isPlainRecord(value: unknown): boolean {
  return isPlainObject(value) && !Object.hasOwn(value, '__proto__') && Object.getOwnPropertySymbols(value).length === 0;
}

/** Whether CallToolResultSchema would parse `result` into a copy with the same JSON; false whenever in doubt. */
export function passesAsItStands(result: unknown): boolean {
  if (!isPlainObject(result)) return false;
  let next = 0;
  for (const key in result) {
    const at = RESULT_KEYS.indexOf(key, next);
    if (at < 0) return false;
    next = at + 1;
  }
  const { content, structuredContent, isError } = result;
  return Array.isArray(content) && content.every(isPlainBlock) && (structuredContent === undefined || isPlainRecord(structuredContent)) && (isError === undefined || typeof isError === 'boolean');
}

/** Hands `result` to the SDK with its JSON text `json` (which must be `JSON.stringify(result)`, whole or in pieces); returns it. */
export function withJson<T extends object>(result: T, json: JsonText): T {
  serialised.set(result, json);
  return result;
}

/** `JSON.stringify(message)`, with a result's known JSON spliced in when the message is the SDK's `{ result, jsonrpc, id }`. */
export function messageJson(message: JSONRPCMessage): JsonText {
  const result = 'result' in message ? message.result : undefined;
  const json = result === undefined ? undefined : serialised.get(result);
  if (json === undefined || !isResultResponse(message)) return JSON.stringify(message);
  return splicedResponse(json, message.id);
}

/**
 * `JSON.stringify({ result, jsonrpc: '2.0', id })`, the response the Protocol builds, with `json` (the
 * result's JSON, when known) spliced in: for a caller that holds the text beside the result rather than
 * registered through `withJson`.
 */
export function resultResponseJson(id: RequestId, result: object, json: JsonText | undefined): JsonText {
  if (json === undefined || !writesAsItIs(id)) return JSON.stringify({ result, jsonrpc: '2.0', id });
  return splicedResponse(json, id);
}

function splicedResponse(json: JsonText, id: string | number): JsonText {
  return concatText('{"result":', json, `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
}

/** An id JSON writes as it is. */
const writesAsItIs = (id: unknown): id is string | number => typeof id === 'string' || Number.isSafeInteger(id);

const RESPONSE_KEYS = ['result', 'jsonrpc', 'id'];

/** Keys `result`, `jsonrpc`, `id` in that order (as the SDK's Protocol builds a response), an id JSON writes as it is. */
function isResultResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  let index = 0;
  for (const key in message) if (key !== RESPONSE_KEYS[index++]) return false;
  return index === RESPONSE_KEYS.length && message.jsonrpc === '2.0' && writesAsItIs('id' in message ? message.id : undefined);
}
