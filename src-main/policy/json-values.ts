/**
 * JSON value helpers for policy operands that never recurse deeper than a bound: a policy file may hold
 * an `equals` value nested thousands of levels deep, and an agent's argument may be deeper than the
 * operand it is compared with. Pure.
 */
import { cappedJson } from '../shared/index.js';

/** True when arrays and objects in `value` nest deeper than `maxDepth` (iterative: any depth is safe). */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * JSON equality with object keys in any order. It descends only while both sides are containers, so it
 * goes no deeper than the shallower side: an operand checked by jsonDepthExceeds bounds it.
 */
export function boundedJsonEquals(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => boundedJsonEquals(item, other[i]));
  }
  const left = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const right = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return left.length === right.length && left.every((k) => Object.hasOwn(b, k) && boundedJsonEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A short JSON text of an operand for reasons shown to the operator. */
export function jsonPreview(value: unknown): string {
  const capped = cappedJson(value, 120);
  // A truncated preview is a JSON string of the text's start; shown as that text, ending in "…".
  return capped.truncated ? (JSON.parse(capped.json) as string) : capped.json;
}
