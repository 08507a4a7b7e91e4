/**
 * The Export link of Live calls: it downloads the recorded calls the current filter and search match,
 * with the history query's own names (`text`, `status`) and `refused` to tell refused from failed calls
 * (console-server.ts reads them). Pure.
 */
import { recordedStatus, type StateFilter } from './calls.js';

export function exportHref(filter: { status: StateFilter; text: string }, format: 'jsonl' | 'csv' = 'jsonl'): string {
  const params = new URLSearchParams({ format });
  const status = recordedStatus(filter.status);
  if (status) params.set('status', status);
  if (filter.status === 'refused' || filter.status === 'error') params.set('refused', String(filter.status === 'refused'));
  if (filter.text.trim()) params.set('text', filter.text.trim());
  return `/audit/export?${params.toString()}`;
}
