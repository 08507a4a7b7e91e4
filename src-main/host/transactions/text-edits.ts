/**
 * Text edits over one document, in UTF-16 code units (JavaScript string indices). All positions are
 * resolved and validated against the original text before anything is applied, so a bad edit
 * leaves the document untouched.
 */
import { hasLoneSurrogate } from '../../shared/index.js';
import { JunctionError, next } from '../../contracts/index.js';

/** Zero-based: either a UTF-16 offset, or a line and a UTF-16 column within that line. */
export type Position = { offset: number } | { line: number; column: number };

export interface TextEdit {
  range: { start: Position; end: Position };
  newText: string;
}

export interface ResolvedEdit {
  start: number;
  end: number;
  newText: string;
}

function rangeInvalid(path: string, message: string, details: Record<string, unknown> = {}): JunctionError {
  return new JunctionError('RangeInvalid', `${path}: ${message}`, { next: next('fixArguments', 'document-read'), details: { path, ...details } });
}

/** Offsets at which each line starts; line terminators belong to the line they end. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Length of a line without its `\n` or `\r\n` terminator. */
function lineContentEnd(text: string, starts: readonly number[], line: number): number {
  const nextStart = starts[line + 1];
  if (nextStart === undefined) return text.length;
  return text.charCodeAt(nextStart - 2) === 13 ? nextStart - 2 : nextStart - 1;
}

function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** Resolves a position to an offset; throws `RangeInvalid` outside the text or inside a surrogate pair. */
export function resolvePosition(path: string, text: string, position: Position, starts: readonly number[] = lineStarts(text)): number {
  let offset: number;
  if ('offset' in position) {
    offset = position.offset;
    if (!Number.isInteger(offset) || offset < 0 || offset > text.length) {
      throw rangeInvalid(path, `offset ${offset} is outside the document (length ${text.length}).`, { offset, length: text.length });
    }
  } else {
    const { line, column } = position;
    const lineStart = starts[line];
    if (!Number.isInteger(line) || lineStart === undefined) {
      throw rangeInvalid(path, `line ${line} is outside the document (${starts.length} lines).`, { line, lineCount: starts.length });
    }
    const lineLength = lineContentEnd(text, starts, line) - lineStart;
    if (!Number.isInteger(column) || column < 0 || column > lineLength) {
      throw rangeInvalid(path, `column ${column} is outside line ${line} (length ${lineLength}).`, { line, column, lineLength });
    }
    offset = lineStart + column;
  }
  if (splitsSurrogatePair(text, offset)) {
    throw rangeInvalid(path, `position ${offset} falls between the two halves of a surrogate pair.`, { offset });
  }
  return offset;
}

/** The line and column of an offset (inverse of resolvePosition). */
export function toLineColumn(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low, column: offset - (starts[low] ?? 0) };
}

/** Validates every edit, rejects overlaps, and returns them sorted by start (stable for insertions at one point). */
export function resolveEdits(path: string, text: string, edits: readonly TextEdit[]): ResolvedEdit[] {
  const starts = lineStarts(text);
  const resolved = edits.map((edit, index) => {
    if (hasLoneSurrogate(edit.newText)) {
      throw new JunctionError('InvalidArguments', `${path}: edit ${index} inserts an unpaired UTF-16 surrogate.`, {
        next: next('fixArguments'),
        details: { path, editIndex: index },
      });
    }
    const start = resolvePosition(path, text, edit.range.start, starts);
    const end = resolvePosition(path, text, edit.range.end, starts);
    if (end < start) throw rangeInvalid(path, `edit ${index} ends (${end}) before it starts (${start}).`, { editIndex: index, start, end });
    return { start, end, newText: edit.newText, index };
  });
  resolved.sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);
  for (let i = 1; i < resolved.length; i++) {
    const prev = resolved[i - 1]!;
    const cur = resolved[i]!;
    if (cur.start < prev.end) {
      throw rangeInvalid(path, `edits ${prev.index} and ${cur.index} overlap.`, { editIndices: [prev.index, cur.index] });
    }
  }
  return resolved.map(({ start, end, newText }) => ({ start, end, newText }));
}

/** Applies validated, sorted, non-overlapping edits. */
export function applyResolvedEdits(text: string, edits: readonly ResolvedEdit[]): string {
  let out = '';
  let cursor = 0;
  for (const edit of edits) {
    out += text.slice(cursor, edit.start) + edit.newText;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

export function applyTextEdits(path: string, text: string, edits: readonly TextEdit[]): string {
  return applyResolvedEdits(text, resolveEdits(path, text, edits));
}

/** Cuts to at most `max` UTF-16 units without leaving half a surrogate pair, which JSON cannot carry. */
export function clipUtf16(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
