/**
 * Format dispatch: probe the common `formatVersion` field, then read supported evidence through its
 * version-specific model and mapper. Writing always uses the current format. Adding format 2 means a
 * new `v2.ts` + mapper, a new reader entry below and a bump of CURRENT_FORMAT_VERSION; format 1 stays.
 */
import type { ZodType } from 'zod';
import type { FileProgress, JournalManifest, OwnerRecord } from '../model.js';
import { ManifestV1, OwnerRecordV1, ProgressLineV1 } from './v1.js';
import { manifestFromV1, manifestToV1, ownerFromV1, ownerToV1, progressFromV1, progressToV1 } from './v1-mapper.js';

export const CURRENT_FORMAT_VERSION = 1 as const;

interface FormatReader {
  manifest: (raw: unknown) => JournalManifest;
  owner: (raw: unknown) => OwnerRecord;
  progress: (raw: unknown) => FileProgress;
}

const READERS: ReadonlyMap<number, FormatReader> = new Map([
  [
    1,
    {
      manifest: (raw) => manifestFromV1(ManifestV1.parse(raw)),
      owner: (raw) => ownerFromV1(OwnerRecordV1.parse(raw)),
      progress: (raw) => progressFromV1(ProgressLineV1.parse(raw)),
    },
  ],
]);

export const SUPPORTED_FORMAT_VERSIONS: readonly number[] = Object.freeze([...READERS.keys()]);

export type Decoded<T> =
  | { kind: 'ok'; formatVersion: number; value: T }
  | { kind: 'unsupported'; formatVersion: number }
  | { kind: 'corrupt'; formatVersion: number | null; reason: string };

/** Reads only the common `formatVersion` field; null when it is missing or not an integer. */
export function probeFormatVersion(raw: unknown): number | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const version = (raw as { formatVersion?: unknown }).formatVersion;
  return typeof version === 'number' && Number.isInteger(version) ? version : null;
}

function decode<T>(text: string, pick: (reader: FormatReader) => (raw: unknown) => T): Decoded<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', formatVersion: null, reason: `not valid JSON: ${(error as Error).message}` };
  }
  const formatVersion = probeFormatVersion(raw);
  if (formatVersion === null) return { kind: 'corrupt', formatVersion: null, reason: 'no integer formatVersion field' };
  const reader = READERS.get(formatVersion);
  if (!reader) return { kind: 'unsupported', formatVersion };
  try {
    return { kind: 'ok', formatVersion, value: pick(reader)(raw) };
  } catch (error) {
    return { kind: 'corrupt', formatVersion, reason: `does not match format ${formatVersion}: ${summarize(error)}` };
  }
}

function summarize(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
  if (!issues) return String(error);
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '$'}: ${issue.message}`)
    .join('; ');
}

export function decodeManifest(text: string): Decoded<JournalManifest> {
  return decode(text, (reader) => reader.manifest);
}

export function decodeOwner(text: string): Decoded<OwnerRecord> {
  return decode(text, (reader) => reader.owner);
}

/**
 * Progress lines belong to their manifest's format. They are advisory, so a torn last line (the
 * process died mid-append) or any unreadable line is skipped rather than failing recovery.
 */
export function decodeProgress(formatVersion: number, text: string): FileProgress[] {
  const reader = READERS.get(formatVersion);
  if (!reader) return [];
  const out: FileProgress[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(reader.progress(JSON.parse(line)));
    } catch {
      continue;
    }
  }
  return out;
}

function encode<T>(schema: ZodType<T>, value: T): string {
  return `${JSON.stringify(schema.parse(value), null, 2)}\n`;
}

export function encodeManifest(manifest: JournalManifest): string {
  return encode(ManifestV1, manifestToV1(manifest));
}

export function encodeOwner(owner: OwnerRecord): string {
  return encode(OwnerRecordV1, ownerToV1(owner));
}

export function encodeProgress(progress: FileProgress): string {
  return `${JSON.stringify(progressToV1(progress))}\n`;
}
