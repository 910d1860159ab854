import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BROWSER_DEFAULT_VIEWPORT, BROWSER_TABS_MAX } from '@h/contracts';
import type { SandboxBrowserState } from '@h/sandbox-protocol';
import { fail } from '../errors';
import { launchChromium } from './browser-launcher';
import { BrowserScreencast } from './browser-screencast';
import { BrowserTabState, withTimeout } from './browser-tab';

/** Closed after this long without a call (and with nobody watching the screencast). */
export const BROWSER_IDLE_CLOSE_MS = 10 * 60_000;
/** Any single Playwright call that is not a navigation or a wait. */
export const BROWSER_CALL_TIMEOUT_MS = 10_000;

/**
 * The sandbox's one Chromium: launched on first use, closed when idle, relaunched on the next call
 * after a crash. Tabs are pages of one context; pages the site opens (popups, target=_blank) are
 * captured as tabs and become active, as in a desktop browser. `changed` hears every state change.
 */
export class BrowserSession {
  readonly screencast = new BrowserScreencast();
  private browser: Browser | null = null;
  private context: BrowserContext | null = null;
  private composer: Page | null = null;
  private launching: Promise<BrowserContext> | null = null;
  private readonly tabs = new Map<string, BrowserTabState>();
  private readonly byPage = new WeakMap<Page, BrowserTabState>();
  private readonly adopting = new WeakMap<Page, Promise<BrowserTabState | undefined>>();
  private activeId: string | null = null;
  private nextTab = 1;
  private nextDialog = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private stateTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly onState: (state: SandboxBrowserState) => void,
    private readonly launch: () => Promise<Browser> = launchChromium,
  ) {}

  state(): SandboxBrowserState {
    return { tabs: [...this.tabs.values()].map((t) => t.info()), activeTabId: this.activeId, viewport: { ...BROWSER_DEFAULT_VIEWPORT } };
  }

  get running(): boolean {
    return !!this.context;
  }

  /** The tab to act on: the given one or the active one; with `open`, a new tab when none is open. */
  async tab(tabId?: string, open = false): Promise<BrowserTabState> {
    this.touch();
    if (tabId) {
      const t = this.tabs.get(tabId);
      if (!t) fail('NOT_FOUND', `no tab ${tabId}`);
      return t;
    }
    const active = this.activeId ? this.tabs.get(this.activeId) : undefined;
    if (active) return active;
    if (!open) fail('NOT_FOUND', 'no tab is open: navigate to a URL first');
    return this.openTab();
  }

  async openTab(): Promise<BrowserTabState> {
    if (this.tabs.size >= BROWSER_TABS_MAX) fail('INVALID_ARGUMENT', `at most ${BROWSER_TABS_MAX} tabs; close one first`);
    const ctx = await this.ensure();
    const page = await withTimeout(ctx.newPage(), BROWSER_CALL_TIMEOUT_MS, 'opening a tab');
    const tab = this.byPage.get(page) ?? (await this.adopt(page));
    if (!tab) fail('UNAVAILABLE', 'the tab closed while it opened');
    await this.activate(tab.id);
    return tab;
  }

  async activate(tabId: string): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (!tab) fail('NOT_FOUND', `no tab ${tabId}`);
    this.activeId = tabId;
    await tab.page.bringToFront().catch(() => undefined);
    await this.screencast.retarget({ tabId, cdp: tab.cdp });
    this.changed();
  }

  async closeTab(tabId: string): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (!tab) fail('NOT_FOUND', `no tab ${tabId}`);
    await withTimeout(tab.page.close(), BROWSER_CALL_TIMEOUT_MS, 'closing a tab').catch(() => undefined);
    this.forget(tab);
  }

  /** A blank page of its own context, for composing screenshots (never a tab, never screencast). */
  async composerPage(): Promise<Page> {
    await this.ensure();
    if (this.composer && !this.composer.isClosed()) return this.composer;
    const browser = this.browser;
    if (!browser) fail('UNAVAILABLE', 'the browser closed');
    const ctx = await browser.newContext({ viewport: { width: 64, height: 64 } });
    this.composer = await ctx.newPage();
    return this.composer;
  }

  /** Re-arms the idle close: every call counts, and so does anyone watching. */
  touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.screencast.active) this.touch();
      else void this.close();
    }, BROWSER_IDLE_CLOSE_MS);
    this.idleTimer.unref();
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const browser = this.browser;
    this.reset();
    if (browser) await withTimeout(browser.close(), 5000, 'closing the browser').catch(() => undefined);
  }

  private async ensure(): Promise<BrowserContext> {
    this.touch();
    if (this.context) return this.context;
    this.launching ??= this.start().finally(() => (this.launching = null));
    return this.launching;
  }

  private async start(): Promise<BrowserContext> {
    let browser: Browser;
    try {
      browser = await this.launch();
    } catch (e) {
      fail('UNAVAILABLE', `Chromium did not start: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    const context = await browser.newContext({ viewport: { ...BROWSER_DEFAULT_VIEWPORT }, acceptDownloads: false });
    context.setDefaultTimeout(BROWSER_CALL_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(30_000);
    browser.on('disconnected', () => {
      // Crashed or killed (e.g. by the OOM killer): drop everything; the next call relaunches.
      if (this.browser === browser) this.reset();
    });
    context.on('page', (page) => void this.adopt(page, true));
    this.browser = browser;
    this.context = context;
    return context;
  }

  /** Registers a page as a tab once, whether its `page` event or openTab gets there first. */
  private adopt(page: Page, fromEvent = false): Promise<BrowserTabState | undefined> {
    let pending = this.adopting.get(page);
    if (!pending) {
      pending = this.register(page, fromEvent);
      this.adopting.set(page, pending);
    }
    return pending;
  }

  private async register(page: Page, fromEvent: boolean): Promise<BrowserTabState | undefined> {
    if (this.tabs.size >= BROWSER_TABS_MAX) {
      await page.close().catch(() => undefined);
      return undefined;
    }
    const ctx = this.context;
    if (!ctx) return undefined;
    if (page.context() !== ctx) return undefined;
    const cdp = await ctx.newCDPSession(page);
    const tab = new BrowserTabState(`tab-${this.nextTab++}`, page, cdp, () => this.changed(), () => `dialog-${this.nextDialog++}`);
    this.tabs.set(tab.id, tab);
    this.byPage.set(page, tab);
    page.on('close', () => this.forget(tab));
    // A popup opened by a page becomes the active tab; tabs we open are activated by openTab.
    if (fromEvent && (await page.opener().catch(() => null))) await this.activate(tab.id);
    this.changed();
    return tab;
  }

  private forget(tab: BrowserTabState): void {
    if (!this.tabs.delete(tab.id)) return;
    tab.close();
    if (this.activeId === tab.id) {
      const last = [...this.tabs.keys()].pop() ?? null;
      this.activeId = null;
      if (last) void this.activate(last).catch(() => undefined);
      else void this.screencast.retarget(null);
    }
    this.changed();
  }

  private reset(): void {
    for (const t of this.tabs.values()) t.close();
    this.tabs.clear();
    this.activeId = null;
    this.browser = null;
    this.context = null;
    this.composer = null;
    void this.screencast.retarget(null);
    this.changed();
  }

  /** State notifications, coalesced: a navigation fires several page events within milliseconds. */
  private changed(): void {
    if (this.stateTimer) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = null;
      this.onState(this.state());
    }, 30);
    this.stateTimer.unref();
  }
}
