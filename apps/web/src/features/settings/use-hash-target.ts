'use client';

import { useEffect } from 'react';

/** How long the page keeps the target in view while the sections above it load. */
const SETTLE_MS = 3000;

/**
 * Brings the element the URL's `#hash` names into view once `ready`, and keeps it there while the
 * page grows above it (sections load their data on their own), until the person scrolls, types or
 * clicks, or a few seconds pass. A browser scrolls to a hash only on the first paint, before these
 * sections exist ("Open Settings" after a missing key links to the key's section).
 */
export function useHashTarget(ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    const bring = () => document.getElementById(id)?.scrollIntoView({ block: 'start' });
    bring();
    const resized = new ResizeObserver(bring);
    resized.observe(document.body);
    const stop = () => {
      resized.disconnect();
      clearTimeout(timer);
      for (const type of USER_MOVES) window.removeEventListener(type, stop, true);
    };
    const timer = setTimeout(stop, SETTLE_MS);
    for (const type of USER_MOVES) window.addEventListener(type, stop, { capture: true, passive: true });
    return stop;
  }, [ready]);
}

const USER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
