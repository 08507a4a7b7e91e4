/**
 * A panel docked beside (right) or below (bottom) the main content, with a splitter the operator drags
 * or moves with the arrow keys (WAI-ARIA window splitter). The size is remembered per panel.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

export type Dock = 'right' | 'bottom';

const STEP = 24;

function storedSize(key: string, fallback: number): number {
  try {
    const n = Number(window.localStorage.getItem(key));
    return Number.isFinite(n) && n > 0 ? n : fallback;
  } catch {
    return fallback;
  }
}

export function ResizablePanel({ id, dock, label, min, max, initial, children }: { id: string; dock: Dock; label: string; min: number; max: number; initial: number; children: ReactNode }) {
  const key = `junction.panel.${id}.${dock}`;
  const [size, setSize] = useState(() => Math.min(max, Math.max(min, storedSize(key, initial))));
  const drag = useRef<{ start: number; size: number } | undefined>(undefined);
  const clamped = Math.min(max, Math.max(min, size));

  useEffect(() => {
    try {
      window.localStorage.setItem(key, String(clamped));
    } catch {
      // Without storage the size lasts for this page only.
    }
  }, [key, clamped]);

  const coordinate = (e: PointerEvent) => (dock === 'right' ? e.clientX : e.clientY);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { start: coordinate(e), size: clamped };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    if (!drag.current) return;
    setSize(drag.current.size + (drag.current.start - coordinate(e)));
  };
  const onPointerUp = (): void => {
    drag.current = undefined;
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const grow = dock === 'right' ? 'ArrowLeft' : 'ArrowUp';
    const shrink = dock === 'right' ? 'ArrowRight' : 'ArrowDown';
    if (e.key === grow) setSize(clamped + STEP);
    else if (e.key === shrink) setSize(clamped - STEP);
    else if (e.key === 'Home') setSize(min);
    else if (e.key === 'End') setSize(max);
    else return;
    e.preventDefault();
  };
  const style = dock === 'right' ? { width: clamped } : { height: clamped };
  return (
    <>
      <div
        className={`splitter splitter-${dock}`}
        role="separator"
        tabIndex={0}
        aria-label={`Resize ${label}`}
        aria-orientation={dock === 'right' ? 'vertical' : 'horizontal'}
        aria-valuenow={Math.round(clamped)}
        aria-valuemin={min}
        aria-valuemax={max}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={onKey}
      />
      <aside className={`panel panel-${dock}`} style={style} aria-label={label} data-testid={`panel-${id}`}>
        {children}
      </aside>
    </>
  );
}
