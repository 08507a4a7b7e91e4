/** A tiny inline SVG line of the last minute, one point per second; gaps (null) break the line. */
import { memo } from 'react';

const WIDTH = 90;
const HEIGHT = 26;

/** `secondary` lines are the first to go in narrow windows. */
export const Sparkline = memo(function Sparkline({ points, label, tone = 'accent', secondary = false }: { points: ReadonlyArray<number | null>; label: string; tone?: 'accent' | 'bad'; secondary?: boolean }) {
  const max = Math.max(1e-9, ...points.map((p) => p ?? 0));
  const step = points.length > 1 ? WIDTH / (points.length - 1) : WIDTH;
  let d = '';
  let pen = false;
  points.forEach((p, i) => {
    if (p === null) {
      pen = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (HEIGHT - 2 - (p / max) * (HEIGHT - 4)).toFixed(1);
    // A point with no neighbour still shows: a zero-length segment with round caps draws a dot.
    d += pen ? `L${x},${y}` : `M${x},${y}l0.01,0`;
    pen = true;
  });
  return (
    <svg className={`sparkline tone-${tone}${secondary ? ' secondary' : ''}`} width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <path d={d} fill="none" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
});
