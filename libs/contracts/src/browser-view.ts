// The workspace's browser over Socket.IO (`browser.*`), typed once for the api and the IDE. One
// headless Chromium runs in each workspace's sandbox (sandboxd drives it with Playwright), so it
// reaches dev servers started there; the agent's browser sub-agent and every member's browser view
// share it: users watch a live screencast, members and up click and type into it, and the agent's
// actions show as they happen. Zod-free on purpose: the browser imports this file's values. Part of
// the socket's typed maps (socket-events.ts).
import type { Ack } from './socket-events';

export interface BrowserTab {
  id: string;
  url: string;
  title: string;
  loading: boolean;
  canGoBack: boolean;
  canGoForward: boolean;
}

export interface BrowserState {
  workspaceId: string;
  tabs: BrowserTab[];
  /** Null when no tab is open (the browser starts on the first navigate or tab open). */
  activeTabId: string | null;
  /** CSS pixels of the page viewport, the coordinate space of frames and input. */
  viewport: { width: number; height: number };
}

/** One screencast frame of the active tab (JPEG, base64), at most BROWSER_FRAME_MAX_* pixels. */
export interface BrowserFrameEvent {
  workspaceId: string;
  tabId: string;
  data: string;
  width: number;
  height: number;
}

/** What the agent (or a member) just did, so every view can show it (a click ripple, a caption). */
export interface BrowserActionEvent {
  workspaceId: string;
  /** The tool ("browser_click") or the view action ("navigate"). */
  action: string;
  /** Viewport CSS pixels, when the action had a point. */
  x?: number;
  y?: number;
  /** What it hit, e.g. `<button> "Sign In"`. */
  target?: string;
  /** 'agent', or the user id of the member who did it. */
  by: string;
}

export type BrowserMouseInput = {
  kind: 'mouse';
  type: 'down' | 'up' | 'move' | 'wheel';
  /** Viewport CSS pixels. */
  x: number;
  y: number;
  button?: 'left' | 'middle' | 'right';
  clickCount?: number;
  deltaX?: number;
  deltaY?: number;
};
export type BrowserKeyInput = {
  kind: 'key';
  type: 'down' | 'up';
  /** KeyboardEvent.key ("a", "Enter"). */
  key: string;
  /** KeyboardEvent.code ("KeyA"). */
  code?: string;
  /** Printable text the key produces, if any. */
  text?: string;
  /** Bit field: Alt 1, Ctrl 2, Meta 4, Shift 8 (CDP's). */
  modifiers?: number;
};
export type BrowserInput = BrowserMouseInput | BrowserKeyInput;

export const BROWSER_FRAME_MAX_WIDTH = 1280;
export const BROWSER_FRAME_MAX_HEIGHT = 960;
/** The viewport a new browser gets. */
export const BROWSER_DEFAULT_VIEWPORT = { width: 1024, height: 768 } as const;
/** Tabs per workspace browser at most. */
export const BROWSER_TABS_MAX = 8;

export interface BrowserServerToClientEvents {
  'browser.state': (state: BrowserState) => void;
  'browser.frame': (frame: BrowserFrameEvent) => void;
  'browser.action': (event: BrowserActionEvent) => void;
}

export interface BrowserClientToServerEvents {
  /** Viewers may watch; an outsider gets NOT_FOUND. Frames flow while anyone is subscribed. */
  'browser.subscribe': (request: { workspaceId: string }, ack: (answer: Ack<BrowserState>) => void) => void;
  'browser.unsubscribe': (request: { workspaceId: string }, ack: (answer: Ack<{ workspaceId: string }>) => void) => void;
  /** http(s) only; opens a tab when none is open. Members and up (below too). */
  'browser.navigate': (request: { workspaceId: string; url: string; tabId?: string }, ack: (answer: Ack<BrowserState>) => void) => void;
  'browser.history': (request: { workspaceId: string; tabId?: string; action: 'back' | 'forward' | 'reload' }, ack: (answer: Ack<BrowserState>) => void) => void;
  'browser.tab': (
    request: { workspaceId: string; action: 'open' | 'close' | 'activate'; tabId?: string; url?: string },
    ack: (answer: Ack<BrowserState>) => void,
  ) => void;
  /** Raw input into the active tab; acknowledged like keystrokes into a terminal (`terminal.input`). */
  'browser.input': (request: { workspaceId: string; tabId?: string; input: BrowserInput }, ack: (answer: Ack<null>) => void) => void;
}
