import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { BROWSER_DEFAULT_VIEWPORT, type BrowserInput, type BrowserServerToClientEvents, type BrowserState } from '@h/contracts';
import { FileSandboxService, SandboxRelay, type Relayed } from '@h/files';
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

interface ViewFields {
  /** The page's state as last seen (a fresh browser's until the first answer). */
  state: BrowserState;
}

type View = Relayed<ViewFields>;

type Emit = <E extends keyof BrowserServerToClientEvents>(socket: Socket, event: E, ...args: Parameters<BrowserServerToClientEvents[E]>) => void;
const emit: Emit = (socket, event, ...args) => void socket.emit(event, ...args);

type Call = 'browser.navigate' | 'browser.history' | 'browser.tab';

/**
 * The browser views of this api process, relayed like live files (SandboxRelay in libs/files):
 * sandboxd's screencast turned on on the workspace's connection while at least one of this
 * process's sockets watches, off when the last leaves. sandboxd sends `browser.state` and
 * `browser.action` to every connection and frames to those with the screencast on, so every api
 * process forwards to its own sockets directly (never through the Redis adapter: nothing arrives
 * twice). Frames are acked to sandboxd as they arrive (it keeps one in flight) and skipped for a
 * socket whose buffer is over BROWSER_FRAME_SKIP_BYTES. A dropped connection is turned back on by
 * the next call that reaches the sandbox (a member's navigate, a file read), and its watchers are
 * told the page's state.
 */
@Injectable()
export class BrowserHub implements OnModuleDestroy {
  private readonly logger = new Logger(BrowserHub.name);
  private readonly relay: SandboxRelay<ViewFields>;

  constructor(private readonly sandbox: FileSandboxService) {
    this.relay = new SandboxRelay<ViewFields>(sandbox, {
      create: (workspaceId) => ({ state: toBrowserState(workspaceId, {}) }),
      listen: (view, client) => this.listen(view, client),
      start: async (view, client) => {
        try {
          view.state = toBrowserState(view.workspaceId, await client.call('browser.state', {}));
          await client.call('browser.screencast', { enabled: true });
        } catch (err) {
          throw fromBrowserError(err);
        }
      },
      rearmed: (view) => {
        for (const socket of view.sockets.values()) if (socket.connected) emit(socket, 'browser.state', view.state);
      },
      stop: (view, client) => {
        if (!client) return;
        void client.call('browser.screencast', { enabled: false }).catch((err: unknown) => this.logger.debug({ err, workspaceId: view.workspaceId }, 'screencast off failed'));
      },
    });
  }

  /** The socket watches the workspace's browser from now on; resolves with the current state. */
  async watch(workspaceId: string, socket: Socket): Promise<BrowserState> {
    return (await this.relay.add(workspaceId, socket)).state;
  }

  leave(workspaceId: string, socketId: string): void {
    this.relay.remove(workspaceId, socketId);
  }

  /** The viewport input is checked against: the last state seen, or a new browser's. */
  async viewport(workspaceId: string): Promise<{ width: number; height: number }> {
    const view = this.relay.get(workspaceId);
    return view?.client ? view.state.viewport : { ...BROWSER_DEFAULT_VIEWPORT };
  }

  /** navigate, history or tab in the sandbox's browser; `by` is the member's user id (for `browser.action`). */
  async call<M extends Call>(workspaceId: string, method: M, params: BrowserMethods[M][0]): Promise<BrowserState> {
    const client = await this.sandbox.client(workspaceId);
    try {
      const raw = await client.call(method, params);
      const state = toBrowserState(workspaceId, raw);
      const view = this.relay.get(workspaceId);
      if (view && view.client === client) view.state = state;
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
    this.relay.stopAll();
  }

  private listen(view: View, client: SandboxClient): () => void {
    const onState = (raw: unknown) => {
      view.state = toBrowserState(view.workspaceId, raw);
      for (const socket of view.sockets.values()) emit(socket, 'browser.state', view.state);
    };
    const onFrame = (raw: unknown) => {
      // Acked whatever happens to it here: sandboxd keeps one frame in flight per connection.
      client.browserFrameAck();
      const frame = toBrowserFrame(view.workspaceId, raw);
      if (frame) this.fanOutFrame(view, frame);
    };
    const onAction = (raw: unknown) => {
      const action = toBrowserAction(view.workspaceId, raw);
      if (action) for (const socket of view.sockets.values()) emit(socket, 'browser.action', action);
    };
    client.on('browser.state', onState);
    client.on('browser.frame', onFrame);
    client.on('browser.action', onAction);
    return () => {
      client.off('browser.state', onState);
      client.off('browser.frame', onFrame);
      client.off('browser.action', onAction);
    };
  }

  private fanOutFrame(view: View, frame: Parameters<BrowserServerToClientEvents['browser.frame']>[0]): void {
    // A disconnected socket is skipped, not forgotten here: the gateway's disconnect takes it out of the relay.
    for (const socket of view.sockets.values()) {
      if (!socket.connected || socketBufferedBytes(socket) > BROWSER_FRAME_SKIP_BYTES) continue;
      emit(socket, 'browser.frame', frame);
    }
  }
}
