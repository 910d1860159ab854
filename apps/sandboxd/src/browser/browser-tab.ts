import type { CDPSession, Dialog, Page } from 'playwright-core';
import type { BrowserTab } from '@h/contracts';
import type { BrowserConsoleEntry, BrowserDialog, BrowserRequestError } from '@h/sandbox-protocol';

/** Entries kept per tab in the console and request-error rings (the seed's "last 50"). */
export const BROWSER_RING_SIZE = 50;
/** A dialog nobody answers is dismissed (Cancel) after this long, so the page is not stuck. */
export const DIALOG_AUTO_DISMISS_MS = 2 * 60_000;
const CONSOLE_TEXT_MAX = 2000;
const URL_MAX = 2000;
const DIALOG_TEXT_MAX = 4000;

class Ring<T> {
  private items: T[] = [];
  constructor(private readonly size: number) {}
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.size) this.items.splice(0, this.items.length - this.size);
  }
  list(): T[] {
    return [...this.items];
  }
}

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) + '…' : s);

interface HeldDialog {
  info: BrowserDialog;
  dialog: Dialog;
  timer: NodeJS.Timeout;
}

/** One page of the browser with what the tools read back: console, failed requests, dialogs. */
export class BrowserTabState {
  readonly console = new Ring<BrowserConsoleEntry>(BROWSER_RING_SIZE);
  readonly requestErrors = new Ring<BrowserRequestError>(BROWSER_RING_SIZE);
  private dialog: HeldDialog | null = null;
  private dialogWaiters: Array<() => void> = [];
  loading = false;
  title = '';
  canGoBack = false;
  canGoForward = false;

  constructor(
    readonly id: string,
    readonly page: Page,
    readonly cdp: CDPSession,
    private readonly changed: () => void,
    private readonly dialogId: () => string,
  ) {
    page.on('console', (m) => this.console.push({ type: m.type(), text: cut(m.text(), CONSOLE_TEXT_MAX), ts: Date.now() }));
    page.on('pageerror', (e) => this.console.push({ type: 'error', text: cut(String(e?.stack ?? e), CONSOLE_TEXT_MAX), ts: Date.now() }));
    page.on('response', (r) => {
      if (r.status() >= 400) {
        this.requestErrors.push({ url: cut(r.url(), URL_MAX), method: r.request().method(), status: r.status(), failure: null, ts: Date.now() });
      }
    });
    page.on('requestfailed', (r) => {
      this.requestErrors.push({ url: cut(r.url(), URL_MAX), method: r.method(), status: null, failure: r.failure()?.errorText ?? 'failed', ts: Date.now() });
    });
    page.on('dialog', (d) => this.hold(d));
    page.on('framenavigated', (f) => {
      if (f !== page.mainFrame()) return;
      this.loading = true;
      void this.refresh();
    });
    page.on('domcontentloaded', () => void this.refresh());
    page.on('load', () => {
      this.loading = false;
      void this.refresh();
    });
  }

  info(): BrowserTab {
    return { id: this.id, url: this.page.url(), title: this.title, loading: this.loading, canGoBack: this.canGoBack, canGoForward: this.canGoForward };
  }

  /** Title and history position, read after navigation events (Playwright has no history API). */
  async refresh(): Promise<void> {
    try {
      // A page blocked by a dialog answers nothing; do not wait on it.
      if (!this.dialog) this.title = cut(await withTimeout(this.page.title(), 2000), 300);
      const h = await withTimeout(this.cdp.send('Page.getNavigationHistory'), 2000);
      this.canGoBack = h.currentIndex > 0;
      this.canGoForward = h.currentIndex < h.entries.length - 1;
    } catch {
      // closed or busy: keep what we had
    }
    this.changed();
  }

  /** Resolves when a dialog opens: an action that opened one would otherwise wait for its answer. */
  whenDialog(): Promise<void> {
    if (this.dialog) return Promise.resolve();
    return new Promise((resolve) => this.dialogWaiters.push(resolve));
  }

  get pendingDialog(): BrowserDialog | null {
    return this.dialog?.info ?? null;
  }

  async respond(id: string, accept: boolean, value?: string): Promise<boolean> {
    const held = this.dialog;
    if (!held || held.info.id !== id) return false;
    this.dialog = null;
    clearTimeout(held.timer);
    await (accept ? held.dialog.accept(value) : held.dialog.dismiss()).catch(() => undefined);
    this.changed();
    return true;
  }

  close(): void {
    if (this.dialog) clearTimeout(this.dialog.timer);
    this.dialog = null;
  }

  private hold(d: Dialog): void {
    // One dialog at a time per page (a page's JS is blocked while one shows).
    const id = this.dialogId();
    const info: BrowserDialog = { id, type: d.type() as BrowserDialog['type'], message: cut(d.message(), DIALOG_TEXT_MAX) };
    if (d.type() === 'prompt') info.defaultValue = cut(d.defaultValue(), DIALOG_TEXT_MAX);
    const timer = setTimeout(() => void this.respond(id, false), DIALOG_AUTO_DISMISS_MS);
    timer.unref();
    this.dialog = { info, dialog: d, timer };
    for (const w of this.dialogWaiters.splice(0)) w();
    this.changed();
  }
}

/** Rejects when `p` has not settled after `ms` (the promise itself keeps running). */
export function withTimeout<T>(p: Promise<T>, ms: number, what = 'browser call'): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BrowserTimeoutError(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export class BrowserTimeoutError extends Error {}
