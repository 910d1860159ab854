import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { BROWSER_DEFAULT_VIEWPORT, type BrowserInput, type BrowserServerToClientEvents, type BrowserState } from '@h/contracts';
import { FileSandboxService } from '@h/files';
import type { SandboxClient } from '@h/sandbox';
import type { BrowserMethods } from '@h/sandbox-protocol';
import { socketBufferedBytes } from '@h/sessions';
import { toBrowserAction, toBrowserFrame, toBrowserState } from './browser-events';
import { fromBrowserError } from './browser.exception';

/**
 * A socket with more than this unsent skips frames until it catches up: a frame is a whole picture,
 * so the next one replaces what was dropped, and nothing queues behind a slow browser.
 */
export const BROWSER_FRAME_SKIP_BYTES = 1024 * 1024;

interface View {
  workspaceId: string;
  client: SandboxClient;
  /** This process's sockets that watch the workspace's browser. */
  sockets: Map<string, Socket>;
  state: BrowserState;
  release: () => void;
  /** Released (no watcher left) or its connection dropped: the next caller connects afresh. */
  dead: boolean;
  /** A dropped view being replaced on a new connection (its watchers move over). */
  rearming: boolean;
}

type Emit = <E extends keyof BrowserServerToClientEvents>(socket: Socket, event: E, ...args: Parameters<BrowserServerToClientEvents[E]>) => void;
const emit: Emit = (socket, event, ...args) => void socket.emit(event, ...args);

type Call = 'browser.navigate' | 'browser.history' | 'browser.tab';

/**
 * The browser views of this api process: one sandbox connection per watched workspace (the file
 * API's, through FileSandboxService) with sandboxd's screencast turned on while at least one of this
 * process's sockets watches, off when the last leaves. sandboxd sends `browser.state` and
 * `browser.action` to every connection and frames to those with the screencast on, so every api
 * process forwards to its own sockets directly (never through the Redis adapter: nothing arrives
 * twice). Frames are acked to sandboxd as they arrive (it keeps one in flight) and skipped for a
 * socket whose buffer is over BROWSER_FRAME_SKIP_BYTES.
 */
@Injectable()
export class BrowserHub implements OnModuleDestroy {
  private readonly logger = new Logger(BrowserHub.name);
  private readonly views = new Map<string, Promise<View>>();

  constructor(private readonly sandbox: FileSandboxService) {
    // The connection dropped (sandbox idle-stopped or restarted) while people watched: the next call
    // that reaches the sandbox (a member's navigate, a file read) turns the screencast back on for
    // them. Not re-opened by itself, which would keep an idle sandbox running forever.
    sandbox.onConnected((workspaceId, client) => {
      const p = this.views.get(workspaceId);
      void p?.then(
        (view) => {
          if (view.client === client || !view.dead || view.rearming || !view.sockets.size) return;
          void this.replace(workspaceId, view).then((fresh) => {
            // Everyone left meanwhile: nobody to stream to.
            if (!fresh.sockets.size) this.leave(workspaceId, '');
          }, () => undefined);
        },
        () => undefined,
      );
    });
  }

  /** The socket watches the workspace's browser from now on; resolves with the current state. */
  async watch(workspaceId: string, socket: Socket): Promise<BrowserState> {
    const view = await this.view(workspaceId);
    view.sockets.set(socket.id, socket);
    return view.state;
  }

  leave(workspaceId: string, socketId: string): void {
    const p = this.views.get(workspaceId);
    void p?.then(
      (view) => {
        if ((socketId && !view.sockets.delete(socketId)) || view.sockets.size) return;
        if (this.views.get(workspaceId) === p) this.views.delete(workspaceId);
        this.drop(view);
      },
      () => undefined,
    );
  }

  /** The viewport input is checked against: the last state seen, or a new browser's. */
  async viewport(workspaceId: string): Promise<{ width: number; height: number }> {
    const view = await this.peek(workspaceId);
    return view && !view.dead ? view.state.viewport : { ...BROWSER_DEFAULT_VIEWPORT };
  }

  /** navigate, history or tab in the sandbox's browser; `by` is the member's user id (for `browser.action`). */
  async call<M extends Call>(workspaceId: string, method: M, params: BrowserMethods[M][0]): Promise<BrowserState> {
    const client = await this.sandbox.client(workspaceId);
    try {
      const raw = await client.call(method, params);
      const state = toBrowserState(workspaceId, raw);
      const view = await this.peek(workspaceId);
      if (view && !view.dead && view.client === client) view.state = state;
      return state;
    } catch (err) {
      throw fromBrowserError(err);
    }
  }

  /**
   * Raw input as a notification: ordered on the connection like the keystrokes of a terminal, no
   * round trip per mouse move. The gateway has ordered and bounded it.
   */
  async input(workspaceId: string, tabId: string | undefined, input: BrowserInput): Promise<void> {
    const client = await this.sandbox.client(workspaceId);
    client.peer.notify('browser.input', { ...(tabId ? { tabId } : {}), input });
    client.emit('activity');
  }

  onModuleDestroy(): void {
    for (const p of this.views.values()) void p.then((v) => this.drop(v)).catch(() => undefined);
    this.views.clear();
  }

  private peek(workspaceId: string): Promise<View | null> | undefined {
    return this.views.get(workspaceId)?.catch(() => null);
  }

  private async view(workspaceId: string): Promise<View> {
    const cached = this.views.get(workspaceId);
    const view = cached ? await cached.catch(() => null) : null;
    if (view && !view.dead && !view.client.closed) return view;
    // Another caller is replacing it already: wait for that one.
    if (cached && this.views.get(workspaceId) !== cached) return this.view(workspaceId);
    return this.replace(workspaceId, view && view.sockets.size ? view : null);
  }

  private async connect(workspaceId: string): Promise<View> {
    const client = await this.sandbox.client(workspaceId);
    const view: View = { workspaceId, client, sockets: new Map(), state: toBrowserState(workspaceId, {}), release: () => undefined, dead: false, rearming: false };
    const onState = (raw: unknown) => {
      view.state = toBrowserState(workspaceId, raw);
      for (const socket of view.sockets.values()) emit(socket, 'browser.state', view.state);
    };
    const onFrame = (raw: unknown) => {
      // Acked whatever happens to it here: sandboxd keeps one frame in flight per connection.
      client.browserFrameAck();
      const frame = toBrowserFrame(workspaceId, raw);
      if (frame) this.fanOutFrame(view, frame);
    };
    const onAction = (raw: unknown) => {
      const action = toBrowserAction(workspaceId, raw);
      if (action) for (const socket of view.sockets.values()) emit(socket, 'browser.action', action);
    };
    const onClose = () => {
      view.dead = true;
      view.release();
    };
    client.on('browser.state', onState);
    client.on('browser.frame', onFrame);
    client.on('browser.action', onAction);
    client.once('close', onClose);
    view.release = () => {
      client.off('browser.state', onState);
      client.off('browser.frame', onFrame);
      client.off('browser.action', onAction);
      client.off('close', onClose);
    };
    try {
      view.state = toBrowserState(workspaceId, await client.call('browser.state', {}));
      await client.call('browser.screencast', { enabled: true });
    } catch (err) {
      view.release();
      throw fromBrowserError(err);
    }
    return view;
  }

  /**
   * A new view on a fresh connection in place of `old` (dropped), which hands its watchers over and
   * tells them the page's state; on failure `old` stays, so a later call tries again.
   */
  private replace(workspaceId: string, old: View | null): Promise<View> {
    if (old) old.rearming = true;
    const p = this.connect(workspaceId).then((view) => {
      for (const [id, socket] of old?.sockets ?? []) {
        if (!socket.connected) continue;
        view.sockets.set(id, socket);
        emit(socket, 'browser.state', view.state);
      }
      return view;
    });
    this.views.set(workspaceId, p);
    p.catch((err: unknown) => {
      if (old) old.rearming = false;
      if (this.views.get(workspaceId) !== p) return;
      if (old) this.views.set(workspaceId, Promise.resolve(old));
      else this.views.delete(workspaceId);
      this.logger.debug({ err, workspaceId }, 'browser view not (re)connected');
    });
    return p;
  }

  private fanOutFrame(view: View, frame: Parameters<BrowserServerToClientEvents['browser.frame']>[0]): void {
    for (const [id, socket] of view.sockets) {
      if (!socket.connected) {
        view.sockets.delete(id);
        continue;
      }
      if (socketBufferedBytes(socket) > BROWSER_FRAME_SKIP_BYTES) continue;
      emit(socket, 'browser.frame', frame);
    }
  }

  private drop(view: View): void {
    if (view.dead) return;
    view.dead = true;
    view.release();
    if (!view.client.closed) {
      void view.client.call('browser.screencast', { enabled: false }).catch((err: unknown) => this.logger.debug({ err, workspaceId: view.workspaceId }, 'screencast off failed'));
    }
  }
}
