import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { type FsChange, PROTOCOL_VERSION, RpcPeer, type HealthResult } from '@h/sandbox-protocol';
import { BrowserService } from './browser/browser.service';
import { CheckpointService } from './checkpoint.service';
import { ExecService } from './exec.service';
import { FsService } from './fs.service';
import { GraphService } from './graph/graph.service';
import { LspService } from './lsp/lsp.service';
import { PathResolver } from './path-resolver';
import { PtyService } from './pty.service';
import { SearchService } from './search.service';
import { WatchService } from './watch.service';

declare const SANDBOXD_VERSION: string | undefined;
const VERSION = typeof SANDBOXD_VERSION === 'string' ? SANDBOXD_VERSION : 'dev';

export interface ServerOptions {
  root: string;
  socketPath: string;
  /** Where checkpoints are kept (the workspace's state volume); default ~/.h. */
  stateDir?: string;
  /** Where the knowledge graph's .kg/.txt go; default ~/.h/snapshots. */
  snapshotsDir?: string;
}

/** The daemon: one RpcPeer per connection on a unix socket, all sharing the services below. */
export class SandboxServer {
  readonly paths: PathResolver;
  private readonly fs: FsService;
  private readonly search: SearchService;
  private readonly exec: ExecService;
  private readonly pty: PtyService;
  private readonly watch: WatchService;
  private readonly checkpoints: CheckpointService;
  private readonly lsp: LspService;
  private readonly browser: BrowserService;
  private readonly graph: GraphService;
  private readonly peers = new Set<RpcPeer>();
  private readonly started = Date.now();
  private lastUse = Date.now();
  private inFlight = 0;
  private server: net.Server | null = null;

  constructor(private readonly opts: ServerOptions) {
    this.paths = new PathResolver(opts.root);
    this.fs = new FsService(this.paths);
    this.search = new SearchService(this.paths, this.fs);
    this.exec = new ExecService(this.paths);
    // Every connection hears of terminals opened and ended, so each api process can update its IDEs.
    this.pty = new PtyService(this.paths, (n) => {
      for (const peer of this.peers) peer.notify('pty.changed', n);
    });
    this.watch = new WatchService(this.paths);
    const onDisk = (changes: FsChange[]) => void this.lsp.onDiskChanges(changes).catch(() => undefined);
    this.lsp = new LspService(this.paths, {
      broadcast: (method, params) => {
        for (const peer of this.peers) peer.notify(method, params);
      },
      watch: (enabled) => this.watch.listen(onDisk, enabled),
    });
    // Page state and actions go to every connection (each api process relays them to its views).
    this.browser = new BrowserService(this.paths, (method, params) => {
      for (const peer of this.peers) peer.notify(method, params);
    });
    // The knowledge graph keeps the watcher on from its first build: it updates from every change.
    // Its snapshots go where the seed keeps them, the sandbox user's ~/.h/snapshots (unless told).
    this.graph = new GraphService(this.paths, { snapshotsDir: opts.snapshotsDir, watcherDrained: () => this.watch.drained() });
    this.checkpoints = new CheckpointService(this.paths, opts.stateDir ? path.join(opts.stateDir, 'checkpoints.git') : undefined);
  }

  async listen(): Promise<void> {
    mkdirSync(path.dirname(this.opts.socketPath), { recursive: true });
    rmSync(this.opts.socketPath, { force: true });
    // allowHalfOpen: a client that half-closes after its last request still gets the answers.
    const server = net.createServer({ allowHalfOpen: true }, (socket) => this.serve(socket, socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.socketPath, () => resolve());
    });
    // Only this user (the one the bridge runs as) may connect.
    chmodSync(this.opts.socketPath, 0o600);
    this.server = server;
    this.startGraph();
  }

  /** The first build of the knowledge graph, then its updates from the watcher. */
  startGraph(): void {
    this.watch.listen(this.onGraphChanges, true);
    this.graph.start();
  }

  /** Serves one client over any duplex pair (a socket, or stdio in tests). */
  serve(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): RpcPeer {
    const peer = new RpcPeer(input as never, output as never);
    this.peers.add(peer);
    peer.onClose(() => {
      this.peers.delete(peer);
      this.pty.detachAll(peer);
      this.watch.unsubscribe(peer);
      this.browser.detach(peer);
    });
    this.register(peer);
    return peer;
  }

  private readonly onGraphChanges = (changes: FsChange[], overflow: boolean) => this.graph.onChanges(changes, overflow);

  async close(): Promise<void> {
    this.graph.close();
    this.pty.closeAll();
    this.lsp.closeAll();
    this.watch.close();
    this.checkpoints.close();
    await this.browser.close();
    for (const p of this.peers) p.close();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    rmSync(this.opts.socketPath, { force: true });
  }

  private register(peer: RpcPeer): void {
    peer.onRequest('health', (): HealthResult => ({
      ok: true,
      protocol: PROTOCOL_VERSION,
      version: VERSION,
      pid: process.pid,
      uid: process.getuid?.() ?? -1,
      uptimeMs: Date.now() - this.started,
      root: this.paths.root,
      ptys: this.pty.count,
      connections: this.peers.size,
      rssBytes: process.memoryUsage.rss(),
      idleMs: Date.now() - Math.max(this.lastUse, this.pty.lastOutputAt),
      inFlight: this.inFlight,
    }));
    // Every request but health is use: idle stop asks the daemon (idleMs, inFlight) so that all
    // hosts' connections count, not only the sweeping process's own.
    const on = (method: string, fn: (p: any, ctx: { signal: AbortSignal }) => unknown) =>
      peer.onRequest(method, async (p, ctx) => {
        this.inFlight++;
        this.lastUse = Date.now();
        try {
          return await fn(p, ctx);
        } finally {
          this.inFlight--;
          this.lastUse = Date.now();
        }
      });
    on('fs.read', (p) => this.fs.read(p));
    on('fs.write', (p) => this.fs.write(p));
    on('fs.list', (p) => this.fs.list(p));
    on('fs.stat', (p) => this.fs.stat(p));
    on('fs.mkdir', (p) => this.fs.mkdir(p));
    on('fs.rename', (p) => this.fs.rename(p));
    on('fs.delete', (p) => this.fs.delete(p));
    on('fs.find', (p) => this.search.find(p));
    on('fs.grep', (p) => this.search.grep(p));
    on('fs.watch', (p) => this.watch.subscribe(peer, !!p.enabled));
    on('exec.run', (p, ctx) => this.exec.run(p, ctx.signal));
    on('checkpoint.create', (p) => this.checkpoints.create(p ?? {}));
    on('checkpoint.restore', (p) => this.checkpoints.restore(p ?? {}));
    on('pty.open', (p) => this.pty.open(p, peer));
    on('pty.attach', (p) => this.pty.attach(p, peer));
    on('pty.write', (p) => this.pty.write(p));
    on('pty.resize', (p) => this.pty.resize(p));
    on('pty.close', (p) => this.pty.close(p));
    on('pty.detach', (p) => this.pty.detach(p, peer));
    on('pty.rename', (p) => this.pty.rename(p));
    on('pty.list', () => this.pty.list());
    on('lsp.sync', (p) => this.lsp.sync(p));
    on('lsp.close', (p) => this.lsp.close(p));
    on('lsp.diagnostics', (p) => this.lsp.diagnostics(p ?? {}));
    on('lsp.completion', (p) => this.lsp.completion(p));
    on('lsp.hover', (p) => this.lsp.hover(p));
    on('lsp.definition', (p) => this.lsp.definition(p));
    on('lsp.status', () => this.lsp.status());
    // Like health, the status is not use: the IDE's status bar asking must not keep a sandbox awake.
    peer.onRequest('graph.status', () => {
      this.startGraph();
      return this.graph.status();
    });
    on('graph.query', (p) => {
      this.startGraph();
      return this.graph.query(p);
    });
    peer.onNotification('pty.write', (p) => {
      // Keystrokes as notifications: no response line per key.
      this.lastUse = Date.now();
      this.pty.write(p);
    });
    peer.onNotification('pty.ack', (p) => this.pty.ack(p, peer));
    this.registerBrowser(peer, on);
  }

  private registerBrowser(peer: RpcPeer, on: (method: string, fn: (p: any) => unknown) => void): void {
    const b = this.browser;
    on('browser.state', () => b.freshState());
    on('browser.navigate', (p) => b.navigate(p));
    on('browser.history', (p) => b.history(p));
    on('browser.tab', (p) => b.tab(p));
    on('browser.screenshot', (p) => b.screenshot(p ?? {}));
    on('browser.click', (p) => b.click(p));
    on('browser.move', (p) => b.move(p));
    on('browser.type', (p) => b.type(p));
    on('browser.clear', (p) => b.clear(p));
    on('browser.select', (p) => b.select(p));
    on('browser.scroll', (p) => b.scroll(p ?? {}));
    on('browser.press', (p) => b.press(p));
    on('browser.wait', (p) => b.wait(p));
    on('browser.console', (p) => b.console(p ?? {}));
    on('browser.requestErrors', (p) => b.requestErrors(p ?? {}));
    on('browser.dialog', (p) => b.dialog(p ?? {}));
    on('browser.respondDialog', (p) => b.respondDialog(p));
    on('browser.upload', (p) => b.upload(p));
    on('browser.screencast', (p) => b.screencast(p, peer));
    on('browser.input', (p) => b.input(p));
    // Raw view input as notifications (no reply per mouse move) and the screencast's flow control.
    peer.onNotification('browser.input', (p) => {
      this.lastUse = Date.now();
      void b.input(p).catch(() => undefined);
    });
    peer.onNotification('browser.frameAck', () => b.frameAck(peer));
  }
}
