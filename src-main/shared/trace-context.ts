/**
 * The W3C Trace Context `traceparent` an agent sends with a call: in a request's `_meta` on MCP (SEP-414,
 * on 2025-11-25 and 2026-07-28 alike) and in the HTTP header on /api. Junction passes it on to the plugin
 * and keeps it in the audit trail, so one request can be followed across agent, Junction and editor.
 *
 * A value that does not parse is dropped, never refused: Trace Context has a receiver that cannot parse
 * the header carry on as if none had come (https://www.w3.org/TR/trace-context/#traceparent-header).
 */

/** version-traceid-parentid-flags: the only shape Junction writes, and the length every version begins with. */
const TRACEPARENT_CHARS = 55;
const FIELDS = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_PARENT_ID = '0'.repeat(16);

/**
 * The agent's `traceparent` when it is valid, as version 00; otherwise undefined. A later version is read
 * as the recommendation says (its first four fields, followed by the end or a dash) and passed on as the
 * version 00 Junction understands, so a plugin never receives fields nobody here could check.
 */
export function validTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length < TRACEPARENT_CHARS) return undefined;
  const fields = FIELDS.exec(value);
  if (!fields) return undefined;
  const [, version, traceId, parentId, flags] = fields;
  if (version === 'ff' || traceId === ZERO_TRACE_ID || parentId === ZERO_PARENT_ID) return undefined;
  if (version === '00' ? value.length !== TRACEPARENT_CHARS : value.length > TRACEPARENT_CHARS && value[TRACEPARENT_CHARS] !== '-') return undefined;
  return `00-${traceId}-${parentId}-${flags}`;
}
