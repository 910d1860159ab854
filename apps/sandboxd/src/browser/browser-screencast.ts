import type { CDPSession } from 'playwright-core';
import { BROWSER_FRAME_MAX_HEIGHT, BROWSER_FRAME_MAX_WIDTH } from '@h/contracts';
import type { BrowserFrameNotification, RpcPeer } from '@h/sandbox-protocol';

const DEFAULT_QUALITY = 60;

interface Viewer {
  maxWidth: number;
  maxHeight: number;
  quality: number;
  /** A frame was sent and not acknowledged yet: later frames wait in `latest` (one slot). */
  awaitingAck: boolean;
  latest: BrowserFrameNotification | null;
}

export interface ScreencastOptions {
  maxWidth?: number;
  maxHeight?: number;
  quality?: number;
}

const clampInt = (v: unknown, lo: number, hi: number, dflt: number) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(Math.max(Math.round(v), lo), hi) : dflt;

/**
 * The active tab's CDP screencast (`Page.startScreencast`), shared by every connection that turned
 * it on. Flow control per connection: one frame in flight until `browser.frameAck`; meanwhile only
 * the newest frame is kept (older ones are dropped), so a slow viewer costs one frame of memory
 * and still ends on the page's latest picture.
 */
export class BrowserScreencast {
  private readonly viewers = new Map<RpcPeer, Viewer>();
  private target: { tabId: string; cdp: CDPSession; onFrame: (f: any) => void } | null = null;
  private wanted: { tabId: string; cdp: CDPSession } | null = null;

  get active(): boolean {
    return this.viewers.size > 0;
  }

  async set(peer: RpcPeer, enabled: boolean, opts: ScreencastOptions): Promise<void> {
    if (enabled) {
      this.viewers.set(peer, {
        maxWidth: clampInt(opts.maxWidth, 64, BROWSER_FRAME_MAX_WIDTH, BROWSER_FRAME_MAX_WIDTH),
        maxHeight: clampInt(opts.maxHeight, 64, BROWSER_FRAME_MAX_HEIGHT, BROWSER_FRAME_MAX_HEIGHT),
        quality: clampInt(opts.quality, 10, 95, DEFAULT_QUALITY),
        awaitingAck: false,
        latest: null,
      });
    } else this.viewers.delete(peer);
    await this.restart();
  }

  ack(peer: RpcPeer): void {
    const v = this.viewers.get(peer);
    if (!v) return;
    v.awaitingAck = false;
    const next = v.latest;
    v.latest = null;
    if (next) this.send(peer, v, next);
  }

  async detach(peer: RpcPeer): Promise<void> {
    if (this.viewers.delete(peer)) await this.restart();
  }

  /** Follows the active tab (null: none open or the browser closed). */
  async retarget(tab: { tabId: string; cdp: CDPSession } | null): Promise<void> {
    this.wanted = tab;
    await this.restart();
  }

  private async restart(): Promise<void> {
    const want = this.viewers.size > 0 ? this.wanted : null;
    if (this.target) {
      const old = this.target;
      this.target = null;
      old.cdp.off('Page.screencastFrame', old.onFrame);
      await old.cdp.send('Page.stopScreencast').catch(() => undefined);
    }
    if (!want) return;
    let maxWidth = 0;
    let maxHeight = 0;
    let quality = 0;
    for (const v of this.viewers.values()) {
      maxWidth = Math.max(maxWidth, v.maxWidth);
      maxHeight = Math.max(maxHeight, v.maxHeight);
      quality = Math.max(quality, v.quality);
    }
    const { tabId, cdp } = want;
    const onFrame = (f: { data: string; sessionId: number; metadata: { deviceWidth: number; deviceHeight: number } }) => {
      // Acknowledge to Chromium at once: our own per-viewer flow control decides what is sent.
      void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
      const dw = f.metadata.deviceWidth;
      const dh = f.metadata.deviceHeight;
      const s = Math.min(1, maxWidth / dw, maxHeight / dh);
      const frame: BrowserFrameNotification = { tabId, data: f.data, width: Math.round(dw * s), height: Math.round(dh * s) };
      for (const [peer, v] of this.viewers) {
        if (v.awaitingAck) v.latest = frame;
        else this.send(peer, v, frame);
      }
    };
    cdp.on('Page.screencastFrame', onFrame);
    this.target = { tabId, cdp, onFrame };
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality, maxWidth, maxHeight, everyNthFrame: 1 }).catch(() => undefined);
  }

  private send(peer: RpcPeer, v: Viewer, frame: BrowserFrameNotification): void {
    v.awaitingAck = true;
    peer.notify('browser.frame', frame);
  }
}
