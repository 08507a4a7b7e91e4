/**
 * A snapshot as the frames a transport sends: the snapshot with its newest calls, then the older calls in
 * `snapshotCalls` parts, newest part first, so the table fills from the top while the rest arrives. A
 * 10,000-call log in one message cost the browser one long task to receive and parse (or deserialise).
 */
import type { ControlWireFrame, SnapshotCallsFrame } from '../contracts/index.js';
import type { SnapshotFrame } from './hub.js';

/** About 200 KB of JSON per message: a few milliseconds of JSON.parse in the page. */
export const SNAPSHOT_CALLS_PER_PART = 1000;
/**
 * The snapshot message itself carries a few screens of the newest calls, so the table can be drawn
 * before the rest of the log has even been parsed: the first render waits on one small message.
 */
export const SNAPSHOT_FIRST_CALLS = 200;

export function snapshotParts(frame: SnapshotFrame, callsPerPart = SNAPSHOT_CALLS_PER_PART, firstCalls = SNAPSHOT_FIRST_CALLS): ControlWireFrame[] {
  const calls = frame.snapshot.calls;
  const size = Math.max(1, callsPerPart);
  const first = Math.max(1, firstCalls);
  if (calls.length <= first) return [frame];
  const parts: ControlWireFrame[] = [{ ...frame, snapshot: { ...frame.snapshot, calls: calls.slice(-first) } }];
  for (let end = calls.length - first; end > 0; end -= size) {
    const part: SnapshotCallsFrame = { type: 'snapshotCalls', seq: frame.seq, calls: calls.slice(Math.max(0, end - size), end) };
    parts.push(part);
  }
  return parts;
}
