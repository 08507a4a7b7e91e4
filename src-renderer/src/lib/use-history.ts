/** The Live calls view's server-side history: pages from the audit trail for the current filter. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallView, HistoryPage, HistoryQuery } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { callState, NONE_HELD, recordedStatus, type StateFilter } from './calls.js';

const PAGE = 200;
/** Typing settles before the server is asked, so a search costs one query, not one per keystroke. */
const DEBOUNCE_MS = 250;
/** While the audit trail upgrades, the first page is asked for again this often, so history appears when it ends. */
export const UPGRADE_POLL_MS = 3_000;

export interface History {
  calls: CallView[];
  nextBefore: number | undefined;
  available: boolean;
  reason: string | undefined;
  /** Present while the audit trail upgrades recorded history. */
  upgrade: HistoryPage['upgrade'];
  loading: boolean;
  loadOlder: () => void;
}

/** Recorded calls in the chosen state: the trail filters by status, which puts failed and refused calls together. */
function inState(calls: CallView[], state: StateFilter): CallView[] {
  return state === 'error' || state === 'refused' ? calls.filter((c) => callState(c, NONE_HELD) === state) : calls;
}

export function useHistory(filter: { status: StateFilter; text: string }): History {
  const channel = useConsole((s) => s.channel);
  const [calls, setCalls] = useState<CallView[]>([]);
  const [nextBefore, setNextBefore] = useState<number | undefined>(undefined);
  const [available, setAvailable] = useState(true);
  const [reason, setReason] = useState<string | undefined>(undefined);
  const [upgrade, setUpgrade] = useState<HistoryPage['upgrade']>(undefined);
  const [loading, setLoading] = useState(false);
  const generation = useRef(0);

  const query = useCallback(
    (before: number | undefined): HistoryQuery => {
      const q: HistoryQuery = { limit: PAGE };
      const status = recordedStatus(filter.status);
      if (status) q.status = status;
      if (filter.text.trim()) q.text = filter.text.trim();
      if (before !== undefined) q.before = before;
      return q;
    },
    [filter.status, filter.text],
  );

  const load = useCallback(
    async (before: number | undefined) => {
      if (!channel) return;
      const mine = ++generation.current;
      // A held call still runs: the trail records calls when they end, so it has none to add.
      if (filter.status === 'held') {
        setCalls([]);
        setNextBefore(undefined);
        return;
      }
      setLoading(true);
      const result = await channel.invoke('history', query(before));
      if (mine !== generation.current) return;
      setLoading(false);
      if (!result.ok) {
        setAvailable(false);
        setReason(`${result.error.code}: ${result.error.message}`);
        setUpgrade(undefined);
        return;
      }
      setAvailable(result.value.available);
      setReason(result.value.reason);
      setUpgrade(result.value.upgrade);
      setNextBefore(result.value.nextBefore);
      const page = inState(result.value.calls, filter.status);
      setCalls((previous) => (before === undefined ? page : [...previous, ...page]));
    },
    [channel, query, filter.status],
  );

  useEffect(() => {
    const timer = setTimeout(() => void load(undefined), filter.text ? DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [load, filter.text]);

  // Each answer during an upgrade is a new object, so this asks again until one comes without it.
  useEffect(() => {
    if (!upgrade) return;
    const timer = setTimeout(() => void load(undefined), UPGRADE_POLL_MS);
    return () => clearTimeout(timer);
  }, [upgrade, load]);

  return { calls, nextBefore, available, reason, upgrade, loading, loadOlder: () => void load(nextBefore) };
}
