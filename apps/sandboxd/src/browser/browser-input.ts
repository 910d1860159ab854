import type { CDPSession } from 'playwright-core';
import type { BrowserInput } from '@h/contracts';

// Windows virtual key codes for keys whose default action Chromium only performs when the code is
// given (Backspace deletes, Enter submits, arrows move the caret); printable keys derive theirs.
const KEY_CODES: Record<string, number> = {
  Backspace: 8, Tab: 9, Enter: 13, Shift: 16, Control: 17, Alt: 18, Pause: 19, CapsLock: 20, Escape: 27,
  ' ': 32, PageUp: 33, PageDown: 34, End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39,
  ArrowDown: 40, Insert: 45, Delete: 46, Meta: 91, F1: 112, F2: 113, F3: 114, F4: 115, F5: 116, F6: 117,
  F7: 118, F8: 119, F9: 120, F10: 121, F11: 122, F12: 123,
};
const MOUSE_TYPES = { down: 'mousePressed', up: 'mouseReleased', move: 'mouseMoved', wheel: 'mouseWheel' } as const;
const KEY_MAX = 32;
const TEXT_MAX = 8;

function keyCode(key: string): number | undefined {
  if (key in KEY_CODES) return KEY_CODES[key];
  if (key.length === 1) {
    const c = key.toUpperCase().charCodeAt(0);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90)) return c;
  }
  return undefined;
}

const finite = (n: unknown, fallback = 0) => (typeof n === 'number' && Number.isFinite(n) ? n : fallback);

/** The view's raw input as CDP input events (the coordinates are viewport CSS pixels already). */
export async function dispatchInput(cdp: CDPSession, input: BrowserInput): Promise<void> {
  if (input.kind === 'mouse') {
    const type = MOUSE_TYPES[input.type];
    if (!type) return;
    await cdp.send('Input.dispatchMouseEvent', {
      type,
      x: finite(input.x),
      y: finite(input.y),
      button: input.type === 'move' || input.type === 'wheel' ? 'none' : (input.button ?? 'left'),
      clickCount: input.type === 'down' || input.type === 'up' ? Math.min(Math.max(finite(input.clickCount, 1), 1), 3) : 0,
      ...(input.type === 'wheel' ? { deltaX: finite(input.deltaX), deltaY: finite(input.deltaY) } : {}),
    });
    return;
  }
  const key = String(input.key ?? '').slice(0, KEY_MAX);
  const text = input.text ? String(input.text).slice(0, TEXT_MAX) : undefined;
  const code = keyCode(key);
  await cdp.send('Input.dispatchKeyEvent', {
    type: input.type === 'up' ? 'keyUp' : text ? 'keyDown' : 'rawKeyDown',
    key,
    ...(input.code ? { code: String(input.code).slice(0, KEY_MAX) } : {}),
    ...(text && input.type !== 'up' ? { text, unmodifiedText: text } : {}),
    ...(code !== undefined ? { windowsVirtualKeyCode: code, nativeVirtualKeyCode: code } : {}),
    modifiers: finite(input.modifiers) & 15,
  });
}
