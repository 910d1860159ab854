import {
  BROWSER_DEFAULT_VIEWPORT,
  BROWSER_FRAME_MAX_HEIGHT,
  BROWSER_FRAME_MAX_WIDTH,
  BROWSER_TABS_MAX,
  type BrowserActionEvent,
  type BrowserFrameEvent,
  type BrowserState,
  type BrowserTab,
} from '@h/contracts';

// What sandboxd sends about its browser, checked before it reaches any IDE: a sandbox runs the
// model's and the users' code, so its notifications are untrusted (bounded strings, finite numbers).

/** One JPEG frame at BROWSER_FRAME_MAX_* in base64 stays well under this; a bigger one is dropped. */
export const BROWSER_FRAME_DATA_MAX = 4 * 1024 * 1024;
const URL_MAX = 8192;
const TITLE_MAX = 512;
const SHORT_MAX = 64;
const TARGET_MAX = 300;

const str = (v: unknown, max: number): string | null => (typeof v === 'string' ? v.slice(0, max) : null);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function tab(raw: unknown): BrowserTab | null {
  if (!raw || typeof raw !== 'object') return null;
  const t = raw as Record<string, unknown>;
  const id = typeof t.id === 'string' && t.id.length <= SHORT_MAX ? t.id : null;
  if (!id) return null;
  return {
    id,
    url: str(t.url, URL_MAX) ?? '',
    title: str(t.title, TITLE_MAX) ?? '',
    loading: t.loading === true,
    canGoBack: t.canGoBack === true,
    canGoForward: t.canGoForward === true,
  };
}

export function toBrowserState(workspaceId: string, raw: unknown): BrowserState {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const tabs = (Array.isArray(s.tabs) ? s.tabs : []).slice(0, BROWSER_TABS_MAX).map(tab).filter((t): t is BrowserTab => t !== null);
  const active = typeof s.activeTabId === 'string' && tabs.some((t) => t.id === s.activeTabId) ? s.activeTabId : (tabs[0]?.id ?? null);
  const vp = (s.viewport && typeof s.viewport === 'object' ? s.viewport : {}) as Record<string, unknown>;
  const width = num(vp.width);
  const height = num(vp.height);
  const viewport =
    width && height && width > 0 && height > 0 && width <= BROWSER_FRAME_MAX_WIDTH * 4 && height <= BROWSER_FRAME_MAX_HEIGHT * 4
      ? { width, height }
      : { ...BROWSER_DEFAULT_VIEWPORT };
  return { workspaceId, tabs, activeTabId: active, viewport };
}

export function toBrowserFrame(workspaceId: string, raw: unknown): BrowserFrameEvent | null {
  if (!raw || typeof raw !== 'object') return null;
  const f = raw as Record<string, unknown>;
  const width = num(f.width);
  const height = num(f.height);
  if (typeof f.tabId !== 'string' || f.tabId.length > SHORT_MAX) return null;
  if (typeof f.data !== 'string' || !f.data.length || f.data.length > BROWSER_FRAME_DATA_MAX || !/^[A-Za-z0-9+/=]+$/.test(f.data.slice(0, 64))) return null;
  if (!width || !height || width <= 0 || height <= 0 || width > BROWSER_FRAME_MAX_WIDTH * 2 || height > BROWSER_FRAME_MAX_HEIGHT * 2) return null;
  return { workspaceId, tabId: f.tabId, data: f.data, width, height };
}

export function toBrowserAction(workspaceId: string, raw: unknown): BrowserActionEvent | null {
  if (!raw || typeof raw !== 'object') return null;
  const a = raw as Record<string, unknown>;
  const action = str(a.action, SHORT_MAX);
  if (!action) return null;
  const x = num(a.x);
  const y = num(a.y);
  const target = str(a.target, TARGET_MAX);
  return {
    workspaceId,
    action,
    ...(x !== undefined && y !== undefined ? { x, y } : {}),
    ...(target ? { target } : {}),
    by: str(a.by, SHORT_MAX) ?? 'agent',
  };
}
