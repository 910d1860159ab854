import { stat } from 'node:fs/promises';
import type { ElementHandle, Page } from 'playwright-core';
import type { BrowserInput } from '@h/contracts';
import type {
  BrowserMethods,
  BrowserScreenshotResult,
  BrowserTargetResult,
  RpcPeer,
  SandboxBrowserState,
} from '@h/sandbox-protocol';
import { fail } from '../errors';
import type { PathResolver } from '../path-resolver';
import { dispatchInput } from './browser-input';
import { composeInPage, snapInPage, type SnapInfo } from './browser-page-scripts';
import { BROWSER_CALL_TIMEOUT_MS, BrowserSession } from './browser-session';
import { BrowserTimeoutError, withTimeout, type BrowserTabState } from './browser-tab';

type P<M extends keyof BrowserMethods> = BrowserMethods[M][0];
type R<M extends keyof BrowserMethods> = BrowserMethods[M][1];

/** Screenshots the model sees are at most this many pixels wide and high. */
export const SCREENSHOT_MAX_SIDE = 1024;
/** The grid drawn on screenshots, in image pixels. */
export const SCREENSHOT_GRID_STEP = 100;
/** An interactive element this far (CSS px) from a pointer action's point is snapped to. */
export const SNAP_RADIUS_PX = 40;
export const NAVIGATE_TIMEOUT_MS = 30_000;
export const WAIT_MAX_MS = 30_000;
const TEXT_MAX = 10_000;
const URL_MAX = 8192;
const SELECTOR_MAX = 1000;
const KEY_MAX = 64;
const UPLOAD_FILES_MAX = 20;
/** Typed key by key up to this length (real key events); longer text is inserted at once. */
const TYPE_KEYS_MAX = 200;

type Notify = (method: string, params: unknown) => void;

/** What the browser tools and the IDE's browser view call (libs/sandbox-protocol browser-protocol.ts). */
export class BrowserService {
  readonly session: BrowserSession;

  constructor(
    private readonly paths: PathResolver,
    private readonly broadcast: Notify,
    session?: BrowserSession,
  ) {
    this.session = session ?? new BrowserSession((s) => this.broadcast('browser.state', s));
  }

  state(): SandboxBrowserState {
    return this.session.state();
  }

  /** The state with titles and history read again (a script may set document.title at any time). */
  async freshState(): Promise<SandboxBrowserState> {
    if (this.session.running) await Promise.all(this.session.state().tabs.map(async (t) => (await this.session.tab(t.id)).refresh()));
    return this.state();
  }

  async navigate(p: P<'browser.navigate'>): Promise<R<'browser.navigate'>> {
    const url = httpUrl(p?.url);
    const tab = await this.session.tab(p.tabId, true);
    this.action('navigate', p.by, { target: url });
    await this.load(tab, () => tab.page.goto(url, { waitUntil: 'load', timeout: NAVIGATE_TIMEOUT_MS }));
    return this.state();
  }

  async history(p: P<'browser.history'>): Promise<R<'browser.history'>> {
    const tab = await this.session.tab(p?.tabId);
    const opts = { waitUntil: 'load' as const, timeout: NAVIGATE_TIMEOUT_MS };
    if (p.action !== 'back' && p.action !== 'forward' && p.action !== 'reload') fail('INVALID_ARGUMENT', 'action must be back, forward or reload');
    this.action(p.action, p.by);
    await this.load(tab, () => (p.action === 'back' ? tab.page.goBack(opts) : p.action === 'forward' ? tab.page.goForward(opts) : tab.page.reload(opts)));
    return this.state();
  }

  async tab(p: P<'browser.tab'>): Promise<R<'browser.tab'>> {
    if (p?.action === 'open') {
      const url = p.url ? httpUrl(p.url) : null;
      const tab = await this.session.openTab();
      if (url) await this.load(tab, () => tab.page.goto(url, { waitUntil: 'load', timeout: NAVIGATE_TIMEOUT_MS }));
    } else if (p?.action === 'close' || p?.action === 'activate') {
      const id = p.tabId ?? this.state().activeTabId;
      if (!id) fail('NOT_FOUND', 'no tab is open');
      if (p.action === 'close') await this.session.closeTab(id);
      else await this.session.activate(id);
    } else fail('INVALID_ARGUMENT', 'action must be open, close or activate');
    return this.state();
  }

  async screenshot(p: P<'browser.screenshot'>): Promise<BrowserScreenshotResult> {
    const tab = await this.ready(p?.tabId);
    const vp = this.state().viewport;
    const scale = Math.min(1, SCREENSHOT_MAX_SIDE / vp.width, SCREENSHOT_MAX_SIDE / vp.height);
    const width = Math.round(vp.width * scale);
    const height = Math.round(vp.height * scale);
    const shot = await guard(tab.page.screenshot({ type: 'png', scale: 'css', timeout: BROWSER_CALL_TIMEOUT_MS }), 'screenshot');
    const composer = await this.session.composerPage();
    const data = await guard(
      composer.evaluate(composeInPage, { png: shot.toString('base64'), width, height, step: SCREENSHOT_GRID_STEP }),
      'drawing the screenshot grid',
    );
    return { data, width, height, url: tab.page.url(), title: tab.title };
  }

  async click(p: P<'browser.click'>): Promise<R<'browser.click'>> {
    const button = p?.button === 'right' ? 'right' : 'left';
    return this.pointer(p, button === 'right' ? 'right_click' : 'click', async (page, hit) => {
      await page.mouse.click(hit.x, hit.y, { button });
    });
  }

  async move(p: P<'browser.move'>): Promise<R<'browser.move'>> {
    return this.pointer(p, 'move', async (page, hit) => page.mouse.move(hit.x, hit.y));
  }

  async type(p: P<'browser.type'>): Promise<R<'browser.type'>> {
    const text = boundedString(p?.text, TEXT_MAX, 'text', true);
    return this.pointer(p, 'type', async (page, hit, el) => {
      await page.mouse.click(hit.x, hit.y);
      // The seed's browser_type replaces what the field held: clear it first (fields only).
      const field = await fieldOf(el);
      if (field) await guard(field.fill('', { timeout: BROWSER_CALL_TIMEOUT_MS }), 'clearing');
      if (text.length <= TYPE_KEYS_MAX) await guard(page.keyboard.type(text), 'typing');
      else await guard(page.keyboard.insertText(text), 'typing');
    });
  }

  async clear(p: P<'browser.clear'>): Promise<R<'browser.clear'>> {
    return this.pointer(p, 'clear', async (page, hit, el) => {
      await page.mouse.click(hit.x, hit.y);
      // fill('') clears inputs, textareas and contenteditables alike and fires input events.
      const field = await fieldOf(el);
      if (field) await guard(field.fill('', { timeout: BROWSER_CALL_TIMEOUT_MS }), 'clearing');
      else {
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Backspace');
      }
    });
  }

  async select(p: P<'browser.select'>): Promise<R<'browser.select'>> {
    if (p?.value === undefined && p?.label === undefined) fail('INVALID_ARGUMENT', 'value or label is required');
    let selected: string[] = [];
    const result = await this.pointer(p, 'select', async (_page, _hit, el) => {
      const select = el ? await el.evaluateHandle((e) => (e instanceof HTMLLabelElement && e.control ? e.control : e)) : null;
      const asElement = select?.asElement();
      const tag = asElement ? await asElement.evaluate((e) => (e as Element).tagName.toLowerCase()) : null;
      if (!asElement || tag !== 'select') fail('INVALID_ARGUMENT', 'no <select> at that point');
      const option = p.value !== undefined ? { value: String(p.value) } : { label: String(p.label) };
      selected = await guard(asElement.selectOption(option, { timeout: BROWSER_CALL_TIMEOUT_MS }), 'selecting');
    });
    return { ...result, selected };
  }

  async scroll(p: P<'browser.scroll'>): Promise<R<'browser.scroll'>> {
    const tab = await this.ready(p?.tabId);
    this.action('scroll', p.by);
    if (p.to === 'top' || p.to === 'bottom') {
      const to = p.to;
      await guard(tab.page.evaluate((where) => window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight), to), 'scrolling');
    } else {
      const vp = this.state().viewport;
      await tab.page.mouse.move(vp.width / 2, vp.height / 2);
      await guard(tab.page.mouse.wheel(finite(p.deltaX), finite(p.deltaY, 400)), 'scrolling');
    }
    return this.state();
  }

  async press(p: P<'browser.press'>): Promise<R<'browser.press'>> {
    const key = boundedString(p?.key, KEY_MAX, 'key');
    const tab = await this.ready(p.tabId);
    this.action('press', p.by, { target: key });
    try {
      await Promise.race([guard(tab.page.keyboard.press(key), 'pressing a key'), tab.whenDialog()]);
    } catch (e) {
      if (e instanceof Error && /Unknown key/.test(e.message)) fail('INVALID_ARGUMENT', e.message.split('\n')[0]);
      throw e;
    }
    return this.freshState();
  }

  async wait(p: P<'browser.wait'>): Promise<R<'browser.wait'>> {
    const selector = boundedString(p?.selector, SELECTOR_MAX, 'selector');
    const timeout = Math.min(Math.max(finite(p.timeoutMs, 10_000), 0), WAIT_MAX_MS);
    const tab = await this.ready(p.tabId);
    try {
      await tab.page.waitForSelector(selector, { state: 'visible', timeout });
      return { found: true };
    } catch (e) {
      if (e instanceof Error && e.name === 'TimeoutError') return { found: false };
      fail('INVALID_ARGUMENT', e instanceof Error ? e.message.split('\n')[0] : String(e));
    }
  }

  async console(p: P<'browser.console'>): Promise<R<'browser.console'>> {
    return { entries: (await this.session.tab(p?.tabId)).console.list() };
  }

  async requestErrors(p: P<'browser.requestErrors'>): Promise<R<'browser.requestErrors'>> {
    return { errors: (await this.session.tab(p?.tabId)).requestErrors.list() };
  }

  async dialog(p: P<'browser.dialog'>): Promise<R<'browser.dialog'>> {
    if (!p?.tabId && !this.state().activeTabId) return { dialog: null };
    return { dialog: (await this.session.tab(p?.tabId)).pendingDialog };
  }

  async respondDialog(p: P<'browser.respondDialog'>): Promise<null> {
    const id = boundedString(p?.id, 100, 'id');
    for (const t of this.state().tabs) {
      const tab = await this.session.tab(t.id);
      if (await tab.respond(id, !!p.accept, p.value === undefined ? undefined : boundedString(p.value, TEXT_MAX, 'value', true))) return null;
    }
    fail('NOT_FOUND', `no open dialog ${id}`);
  }

  async upload(p: P<'browser.upload'>): Promise<R<'browser.upload'>> {
    if (!Array.isArray(p?.paths) || p.paths.length === 0 || p.paths.length > UPLOAD_FILES_MAX) {
      fail('INVALID_ARGUMENT', `paths: 1 to ${UPLOAD_FILES_MAX} workspace files`);
    }
    const files: string[] = [];
    for (const raw of p.paths) {
      const resolved = await this.paths.resolve(boundedString(raw, 4096, 'path'));
      const st = await stat(resolved.abs).catch(() => null);
      if (!st) fail('NOT_FOUND', `${raw}: no such file`);
      if (!st.isFile()) fail('IS_DIRECTORY', `${raw}: not a file`);
      files.push(resolved.abs);
    }
    const fileInput = async (el: ElementHandle | null) => {
      const input = el ? await el.evaluateHandle((e) => (e instanceof HTMLLabelElement && e.control ? e.control : e)) : null;
      const asElement = input?.asElement();
      const ok = asElement ? await asElement.evaluate((e) => e instanceof HTMLInputElement && e.type === 'file') : false;
      return ok && asElement ? asElement : null;
    };
    if (typeof p.x === 'number' && typeof p.y === 'number') {
      return this.pointer({ tabId: p.tabId, x: p.x, y: p.y }, 'upload', async (_page, _hit, el) => {
        const input = await fileInput(el);
        if (!input) fail('INVALID_ARGUMENT', 'no file input at that point');
        await guard(input.setInputFiles(files, { timeout: BROWSER_CALL_TIMEOUT_MS }), 'uploading');
      });
    }
    const tab = await this.ready(p.tabId);
    const first = await tab.page.$('input[type=file]');
    if (!first) fail('NOT_FOUND', 'the page has no file input');
    await guard(first.setInputFiles(files, { timeout: BROWSER_CALL_TIMEOUT_MS }), 'uploading');
    this.action('upload', undefined, { target: '<input type="file">' });
    return { target: '<input type="file">' };
  }

  async screencast(p: P<'browser.screencast'>, peer: RpcPeer): Promise<null> {
    if (p?.enabled) {
      // Watching starts the browser only when there is something to watch; frames begin with a tab.
      const active = this.state().activeTabId;
      if (active) await this.session.screencast.retarget({ tabId: active, cdp: (await this.session.tab(active)).cdp });
    }
    this.session.touch();
    await this.session.screencast.set(peer, !!p?.enabled, p ?? {});
    return null;
  }

  frameAck(peer: RpcPeer): void {
    this.session.screencast.ack(peer);
  }

  async input(p: { tabId?: string; input: BrowserInput }): Promise<null> {
    if (!p?.input || (p.input.kind !== 'mouse' && p.input.kind !== 'key')) fail('INVALID_ARGUMENT', 'input must be a mouse or key event');
    const tab = await this.session.tab(p.tabId);
    await guard(dispatchInput(tab.cdp, p.input), 'input');
    return null;
  }

  detach(peer: RpcPeer): void {
    void this.session.screencast.detach(peer);
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /** A tab that can take page calls: open, and not blocked by a dialog (every call would hang). */
  private async ready(tabId?: string): Promise<BrowserTabState> {
    const tab = await this.session.tab(tabId);
    const d = tab.pendingDialog;
    if (d) fail('UNAVAILABLE', `${d.type === 'alert' ? 'an' : 'a'} ${d.type} dialog is open ("${d.message.slice(0, 200)}", id ${d.id}): answer it with browser_dialog first`);
    return tab;
  }

  private async pointer(
    p: { tabId?: string; x: number; y: number; by?: string },
    action: string,
    act: (page: Page, hit: SnapInfo, el: ElementHandle | null) => Promise<void>,
  ): Promise<BrowserTargetResult> {
    if (!Number.isFinite(p?.x) || !Number.isFinite(p?.y)) fail('INVALID_ARGUMENT', 'x and y must be numbers (screenshot pixels)');
    const tab = await this.ready(p.tabId);
    const vp = this.state().viewport;
    // Screenshot pixels → viewport CSS pixels (the screenshot is the viewport scaled to ≤ 1024).
    const scale = Math.min(1, SCREENSHOT_MAX_SIDE / vp.width, SCREENSHOT_MAX_SIDE / vp.height);
    const x = Math.min(Math.max(p.x / scale, 0), vp.width - 1);
    const y = Math.min(Math.max(p.y / scale, 0), vp.height - 1);
    const handle = await guard(tab.page.evaluateHandle(snapInPage, { x, y, radius: SNAP_RADIUS_PX }), 'finding the target');
    const info = (await guard((await handle.getProperty('1')).jsonValue(), 'finding the target')) as SnapInfo;
    const el = (await handle.getProperty('0')).asElement();
    this.action(action, p.by, { x: info.x, y: info.y, target: info.target ?? undefined });
    try {
      // An action that opens a dialog (alert on click) blocks until it is answered: return then.
      await Promise.race([guard(act(tab.page, info, el as ElementHandle | null), action), tab.whenDialog()]);
    } finally {
      void handle.dispose().catch(() => undefined);
    }
    return { target: info.target, x: info.x, y: info.y, state: await this.freshState() };
  }

  /** Navigations: a page that does not finish loading is reported (state.loading), not an error. */
  private async load(tab: BrowserTabState, go: () => Promise<unknown>): Promise<void> {
    try {
      await go();
    } catch (e) {
      if (e instanceof Error && e.name === 'TimeoutError') return;
      const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
      fail('UNAVAILABLE', msg.replace(/^page\.\w+: /, ''));
    }
    await tab.refresh();
  }

  private action(action: string, by: string | undefined, extra: { x?: number; y?: number; target?: string } = {}): void {
    const who = typeof by === 'string' && by ? by.slice(0, 100) : 'agent';
    this.broadcast('browser.action', { action: who === 'agent' ? `browser_${action}` : action, ...extra, by: who });
  }
}

/** The text field an element is or labels (input, textarea, contenteditable), else null. */
async function fieldOf(el: ElementHandle | null): Promise<ElementHandle | null> {
  if (!el) return null;
  const handle = await el.evaluateHandle((e) => {
    const t = e instanceof HTMLLabelElement && e.control ? e.control : e;
    const fillable = (t instanceof HTMLInputElement && !['checkbox', 'radio', 'file', 'submit', 'button', 'image', 'reset', 'range', 'color'].includes(t.type)) || t instanceof HTMLTextAreaElement || (t instanceof HTMLElement && t.isContentEditable);
    return fillable ? t : null;
  });
  return handle.asElement();
}

function httpUrl(raw: unknown): string {
  const s = boundedString(raw, URL_MAX, 'url');
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    fail('INVALID_ARGUMENT', `not a URL: ${s.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('INVALID_ARGUMENT', `only http and https URLs can be opened, not ${url.protocol}`);
  return url.href;
}

function boundedString(v: unknown, max: number, name: string, allowEmpty = false): string {
  if (typeof v !== 'string' || (!allowEmpty && v.length === 0)) fail('INVALID_ARGUMENT', `${name} must be a non-empty string`);
  if (v.length > max) fail('TOO_LARGE', `${name} is longer than ${max} characters`);
  return v;
}

function finite(n: unknown, fallback = 0): number {
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback;
}

/** Every page call is bounded: a hung page must never stall the daemon. */
async function guard<T>(p: Promise<T>, what: string): Promise<T> {
  try {
    return await withTimeout(p, BROWSER_CALL_TIMEOUT_MS + 1000, what);
  } catch (e) {
    if (e instanceof BrowserTimeoutError || (e instanceof Error && e.name === 'TimeoutError')) fail('UNAVAILABLE', `${what} timed out`);
    throw e;
  }
}
