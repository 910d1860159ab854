'use client';

import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type MouseEvent, type WheelEvent } from 'react';
import type { BrowserActionEvent, BrowserFrameEvent, BrowserInput } from '@h/contracts';
import { actionCaption, fromViewportPoint, toKeyInput, toViewportPoint, type Size } from './browser-view-state';
import styles from './browser.module.css';

/** How long an action's ripple and caption stay up. */
const ACTION_SHOWN_MS = 2500;
const BUTTONS = ['left', 'middle', 'right'] as const;

export interface BrowserScreenHandle {
  frame(frame: BrowserFrameEvent): void;
  action(action: BrowserActionEvent): void;
}

interface Props {
  viewport: Size;
  canWrite: boolean;
  userId: string | null;
  send(input: BrowserInput): void;
}

interface Shown {
  id: number;
  caption: string;
  at: { x: number; y: number } | null;
}

/**
 * The page: the latest screencast frame in an <img> (its src set directly, not through React
 * state), mouse and keys forwarded in viewport CSS px, and the last actions drawn over it. Focusable,
 * and it keeps the keys it forwards from the IDE (so typing goes to the page).
 */
export const BrowserScreen = forwardRef<BrowserScreenHandle, Props>(function BrowserScreen({ viewport, canWrite, userId, send }, ref) {
  const box = useRef<HTMLDivElement | null>(null);
  const img = useRef<HTMLImageElement | null>(null);
  const frameSize = useRef<Size>({ width: viewport.width, height: viewport.height });
  const [hasFrame, setHasFrame] = useState(false);
  const [shown, setShown] = useState<Shown[]>([]);
  const seq = useRef(0);
  const moving = useRef<{ x: number; y: number } | null>(null);
  const raf = useRef<number | null>(null);
  const viewportRef = useRef(viewport);
  viewportRef.current = viewport;

  const boxSize = (): Size => ({ width: box.current?.clientWidth ?? 0, height: box.current?.clientHeight ?? 0 });

  useImperativeHandle(
    ref,
    () => ({
      frame(f) {
        frameSize.current = { width: f.width, height: f.height };
        if (img.current) img.current.src = `data:image/jpeg;base64,${f.data}`;
        setHasFrame(true);
      },
      action(a) {
        const id = ++seq.current;
        const at = a.x !== undefined && a.y !== undefined ? fromViewportPoint({ x: a.x, y: a.y }, boxSize(), frameSize.current, viewportRef.current) : null;
        setShown((prev) => [...prev.slice(-2), { id, caption: actionCaption(a, { self: userId ?? undefined }), at }]);
        setTimeout(() => setShown((prev) => prev.filter((s) => s.id !== id)), ACTION_SHOWN_MS);
      },
    }),
    [userId],
  );

  useEffect(() => () => void (raf.current !== null && cancelAnimationFrame(raf.current)), []);

  const point = useCallback((e: { clientX: number; clientY: number }) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect) return null;
    return toViewportPoint({ x: e.clientX - rect.left, y: e.clientY - rect.top }, boxSize(), frameSize.current, viewportRef.current);
  }, []);

  const onMouse = (type: 'down' | 'up') => (e: MouseEvent) => {
    if (!canWrite) return;
    if (type === 'down') box.current?.focus();
    const p = point(e);
    if (!p) return;
    e.preventDefault();
    send({ kind: 'mouse', type, ...p, button: BUTTONS[e.button] ?? 'left', clickCount: Math.min(3, Math.max(1, e.detail || 1)) });
  };
  // At most one move per animation frame: the page needs no more, and the server rate-limits input.
  const onMove = (e: MouseEvent) => {
    if (!canWrite) return;
    moving.current = point(e);
    raf.current ??= requestAnimationFrame(() => {
      raf.current = null;
      if (moving.current) send({ kind: 'mouse', type: 'move', ...moving.current });
    });
  };
  const onWheel = (e: WheelEvent) => {
    if (!canWrite) return;
    const p = point(e);
    if (p) send({ kind: 'mouse', type: 'wheel', ...p, deltaX: Math.max(-10_000, Math.min(10_000, e.deltaX)), deltaY: Math.max(-10_000, Math.min(10_000, e.deltaY)) });
  };
  const onKey = (type: 'down' | 'up') => (e: KeyboardEvent) => {
    if (!canWrite) return;
    // The IDE's own shortcuts (Mod+P, Mod+S…) are taken by the shell before this; the rest is the page's.
    const input = toKeyInput(type, e);
    if (!input) return;
    e.preventDefault();
    e.stopPropagation();
    send(input);
  };

  return (
    <div
      ref={box}
      className={styles.screen}
      tabIndex={canWrite ? 0 : -1}
      role="application"
      aria-label="Browser page"
      aria-roledescription="remote page"
      data-testid="browser-screen"
      onMouseDown={onMouse('down')}
      onMouseUp={onMouse('up')}
      onMouseMove={onMove}
      onWheel={onWheel}
      onKeyDown={onKey('down')}
      onKeyUp={onKey('up')}
      onContextMenu={(e) => canWrite && e.preventDefault()}
    >
      {/* A plain img: frames are data: URLs set per frame; next/image has nothing to optimise. */}
      <img ref={img} alt="" className={styles.frame} draggable={false} data-testid="browser-frame" data-has-frame={hasFrame ? 'true' : 'false'} />
      {shown.map((s) =>
        s.at ? <span key={`r${s.id}`} className={styles.ripple} style={{ left: s.at.x, top: s.at.y }} aria-hidden /> : null,
      )}
      {shown.length ? (
        <div className={styles.captions} role="status" aria-live="polite" data-testid="browser-actions">
          {shown.map((s) => (
            <p key={s.id} className={styles.caption}>
              {s.caption}
            </p>
          ))}
        </div>
      ) : null}
    </div>
  );
});
