// Browser methods of the sandbox protocol (served by apps/sandboxd, which drives the image's
// Chromium with playwright-core; called by the host). One browser per sandbox, started on the first
// call and closed when idle; the agent's browser tools and every member's browser view share it.
// Coordinates of agent tools are screenshot-image pixels (the `Screenshot: WxH` space); the view's
// raw input uses viewport CSS pixels.
import type { BrowserInput, BrowserState } from '@h/contracts';

/** The page state without the workspace id (the host adds it). */
export type SandboxBrowserState = Omit<BrowserState, 'workspaceId'>;

export interface BrowserPointParams {
  tabId?: string;
  /** Screenshot-image pixels. */
  x: number;
  y: number;
}

export interface BrowserScreenshotResult {
  /** PNG, base64, at most 1024x1024, with the coordinate grid and 100 px labels drawn on it. */
  data: string;
  width: number;
  height: number;
  url: string;
  title: string;
}

/** What a pointer action hit after snapping to the nearest interactive element. */
export interface BrowserTargetResult {
  /** e.g. `<button> "Sign In"`; null when nothing interactive was near. */
  target: string | null;
  /** Viewport CSS pixels actually used. */
  x: number;
  y: number;
  state: SandboxBrowserState;
}

export interface BrowserConsoleEntry {
  type: string;
  text: string;
  ts: number;
}
export interface BrowserRequestError {
  url: string;
  method: string;
  status: number | null;
  failure: string | null;
  ts: number;
}
export interface BrowserDialog {
  id: string;
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  defaultValue?: string;
}

/** Notification `browser.state`, to every connection, when tabs, urls, titles or loading change. */
export type BrowserStateNotification = SandboxBrowserState;
/** Notification `browser.frame`, to connections with the screencast on; reply `browser.frameAck`. */
export interface BrowserFrameNotification {
  tabId: string;
  /** JPEG, base64. */
  data: string;
  width: number;
  height: number;
}
/** Notification `browser.action`, to every connection: a tool or input acted on the page. */
export interface BrowserActionNotification {
  action: string;
  x?: number;
  y?: number;
  target?: string;
  by: string;
}

export interface BrowserMethods {
  'browser.state': [Record<string, never>, SandboxBrowserState];
  /** http/https only (INVALID_ARGUMENT otherwise); opens a tab when none is open. */
  'browser.navigate': [{ url: string; tabId?: string; by?: string }, SandboxBrowserState];
  'browser.history': [{ action: 'back' | 'forward' | 'reload'; tabId?: string; by?: string }, SandboxBrowserState];
  'browser.tab': [{ action: 'open' | 'close' | 'activate'; tabId?: string; url?: string }, SandboxBrowserState];
  'browser.screenshot': [{ tabId?: string }, BrowserScreenshotResult];
  'browser.click': [BrowserPointParams & { button?: 'left' | 'right'; by?: string }, BrowserTargetResult];
  'browser.move': [BrowserPointParams & { by?: string }, BrowserTargetResult];
  'browser.type': [BrowserPointParams & { text: string; by?: string }, BrowserTargetResult];
  'browser.clear': [BrowserPointParams & { by?: string }, BrowserTargetResult];
  'browser.select': [BrowserPointParams & { value?: string; label?: string; by?: string }, BrowserTargetResult & { selected: string[] }];
  'browser.scroll': [{ tabId?: string; deltaX?: number; deltaY?: number; to?: 'top' | 'bottom'; by?: string }, SandboxBrowserState];
  'browser.press': [{ tabId?: string; key: string; by?: string }, SandboxBrowserState];
  'browser.wait': [{ tabId?: string; selector: string; timeoutMs?: number }, { found: boolean }];
  'browser.console': [{ tabId?: string }, { entries: BrowserConsoleEntry[] }];
  'browser.requestErrors': [{ tabId?: string }, { errors: BrowserRequestError[] }];
  'browser.dialog': [{ tabId?: string }, { dialog: BrowserDialog | null }];
  'browser.respondDialog': [{ id: string; accept: boolean; value?: string }, null];
  /** Absolute workspace paths; at x,y or the page's first file input. */
  'browser.upload': [{ tabId?: string; x?: number; y?: number; paths: string[] }, BrowserTargetResult | { target: string }];
  /** This connection's screencast of the active tab on or off. */
  'browser.screencast': [{ enabled: boolean; maxWidth?: number; maxHeight?: number; quality?: number }, null];
  /** Raw view input as a request (notifications `browser.input` carry the same, unanswered). */
  'browser.input': [{ tabId?: string; input: BrowserInput }, null];
}
