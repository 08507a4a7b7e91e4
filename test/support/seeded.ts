/** A repeatable source of small random integers for corpus tests (a linear congruential generator's high bits). */
export function seededInts(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (state >>> 16) % below;
  };
}
