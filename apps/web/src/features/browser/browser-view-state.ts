// The browser view's pure parts (no React, no socket): what the address bar sends, where a mouse
// event lands in the page's viewport, what a key sends, and how an action reads as a caption.
import type { BrowserActionEvent, BrowserKeyInput } from '@h/contracts';

/**
 * What the user typed into the address bar as an http(s) URL: a bare host ("localhost:3000/login")
 * gets http://; anything else with a scheme the sandbox refuses (file:, javascript:) gives null.
 */
export function normalizeAddress(typed: string): string | null {
  const text = typed.trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text) ? text : `http://${text}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export interface Size {
  width: number;
  height: number;
}

/**
 * Where the frame is drawn inside its box: scaled to fit and centred (CSS `object-fit: contain`),
 * so the letterbox bars around it are outside the page.
 */
export function fittedRect(box: Size, frame: Size): { left: number; top: number; width: number; height: number } {
  if (box.width <= 0 || box.height <= 0 || frame.width <= 0 || frame.height <= 0) return { left: 0, top: 0, width: 0, height: 0 };
  const scale = Math.min(box.width / frame.width, box.height / frame.height);
  const width = frame.width * scale;
  const height = frame.height * scale;
  return { left: (box.width - width) / 2, top: (box.height - height) / 2, width, height };
}

/**
 * A point in the box (offset from its top-left, CSS px) as viewport CSS px of the page; null on the
 * letterbox. The frame may be smaller than the viewport (BROWSER_FRAME_MAX_*), so the scale goes to
 * the viewport, not to the picture's pixels.
 */
export function toViewportPoint(point: { x: number; y: number }, box: Size, frame: Size, viewport: Size): { x: number; y: number } | null {
  const r = fittedRect(box, frame);
  if (!r.width || !r.height) return null;
  const fx = (point.x - r.left) / r.width;
  const fy = (point.y - r.top) / r.height;
  if (fx < 0 || fy < 0 || fx > 1 || fy > 1) return null;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { x: round(Math.min(viewport.width, fx * viewport.width)), y: round(Math.min(viewport.height, fy * viewport.height)) };
}

/** The inverse: where a viewport point (an agent's click) is drawn in the box, for the ripple. */
export function fromViewportPoint(point: { x: number; y: number }, box: Size, frame: Size, viewport: Size): { x: number; y: number } | null {
  const r = fittedRect(box, frame);
  if (!r.width || !viewport.width || !viewport.height) return null;
  return { x: r.left + (point.x / viewport.width) * r.width, y: r.top + (point.y / viewport.height) * r.height };
}

interface KeyEventLike {
  key: string;
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/** CDP's modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8. */
export function modifierBits(e: Pick<KeyEventLike, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>): number {
  return (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
}

/** A key event as the view sends it; printable text only for a plain (or shifted) printable key. */
export function toKeyInput(type: 'down' | 'up', e: KeyEventLike): BrowserKeyInput | null {
  if (!e.key || e.key.length > 32 || e.key === 'Unidentified' || e.key === 'Dead') return null;
  const modifiers = modifierBits(e);
  const printable = type === 'down' && [...e.key].length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
  const text = printable ? e.key : e.key === 'Enter' && type === 'down' ? '\r' : undefined;
  return {
    kind: 'key',
    type,
    key: e.key,
    ...(e.code && e.code.length <= 32 ? { code: e.code } : {}),
    ...(text ? { text } : {}),
    ...(modifiers ? { modifiers } : {}),
  };
}

const VERBS: Record<string, string> = {
  browser_click: 'clicked',
  click: 'clicked',
  browser_right_click: 'right-clicked',
  browser_type: 'typed into',
  type: 'typed into',
  browser_clear: 'cleared',
  browser_select: 'selected in',
  browser_move_mouse: 'pointed at',
  browser_move: 'pointed at',
  browser_press: 'pressed',
  press: 'pressed',
  browser_upload: 'uploaded a file to',
  browser_scroll: 'scrolled',
  browser_press_key: 'pressed a key',
  browser_navigate: 'opened',
  navigate: 'opened',
  browser_upload_file: 'uploaded a file to',
  browser_respond_dialog: 'answered a dialog',
  browser_wait: 'waited for',
  browser_screenshot: 'took a screenshot of',
  browser_info: 'read',
  back: 'went back',
  forward: 'went forward',
  reload: 'reloaded',
};

/** `Browser Agent clicked <button> "Sign In"`; a member's action names them when known. */
export function actionCaption(event: Pick<BrowserActionEvent, 'action' | 'target' | 'by'>, names: { self?: string; users?: Record<string, string> } = {}): string {
  const who = event.by === 'agent' ? 'Browser Agent' : event.by === names.self ? 'You' : (names.users?.[event.by] ?? 'A teammate');
  const verb = VERBS[event.action] ?? event.action.replace(/^browser_/, '').replace(/_/g, ' ');
  return event.target ? `${who} ${verb} ${event.target}` : `${who} ${verb}`;
}
