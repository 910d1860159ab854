import { readFile, stat } from 'node:fs/promises';
import type { FileDiagnostics, LspCompletionList, LspHover, LspLocation, LspServerStatus } from '@h/contracts';
import type { FsChange, LspDiagnosticsParams, LspDiagnosticsResult, LspPositionParams } from '@h/sandbox-protocol';
import { fail } from '../errors';
import type { PathResolver } from '../path-resolver';
import { toCompletionList, toHover, toLocations } from './lsp-convert';
import { fileUri, filterDiagnostics, normalizeUri } from './lsp-pipeline';
import { type ServerSpec, SERVER_SPECS, specFor, which } from './lsp-servers';
import { LspSession, type PublishParams } from './lsp-session';

/** A language's server stops after this long without a sync, request or disk change of its files. */
export const LSP_IDLE_STOP_MS = 10 * 60_000;
/** Files larger than this are not given to a server (a generated bundle would stall it). */
export const LSP_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Documents open per server; beyond, the least recently used one opened from disk is closed. */
export const LSP_MAX_OPEN_DOCS = 300;
/** Files with diagnostics kept at most (the whole cache, all languages). */
export const LSP_MAX_CACHED_FILES = 5000;
/** Paths one `lsp.diagnostics` call may name. */
export const LSP_MAX_PATHS = 200;
/** Longest wait one `lsp.diagnostics` call may ask for. */
export const LSP_MAX_WAIT_MS = 60_000; // read_problems asks for all of it (libs/tools lsp-problems.ts)
/** Restart delays after crashes; past the last, the server is `failed` until LSP_RETRY_FAILED_MS has passed. */
const RESTART_BACKOFF_MS = [500, 2000, 5000, 15_000];
const LSP_RETRY_FAILED_MS = 60_000;
const WAIT_POLL_MS = 100;
/** Publishes are gathered this long into one `lsp.diagnostics` notification. */
const NOTIFY_COALESCE_MS = 20;

interface Doc {
  rel: string;
  uri: string;
  languageId: string;
  version: number;
  text: string;
  /** An editor's buffer (lsp.sync with text) rather than what is on disk. */
  fromEditor: boolean;
  /** The version the last publish for this file answered (-1: none yet). */
  published: number;
  usedAt: number;
}

interface Server {
  spec: ServerSpec;
  /** The binary found on PATH and its arguments; null: not installed, skipped quietly. */
  command: { bin: string; path: string; args: string[] } | null;
  session: LspSession | null;
  starting: Promise<LspSession> | null;
  state: LspServerStatus['state'];
  docs: Map<string, Doc>;
  idleTimer: NodeJS.Timeout | null;
  restartTimer: NodeJS.Timeout | null;
  crashes: number;
  failedAt: number;
  lastPublishAt: number;
}

export interface LspServiceHooks {
  /** Send a notification to every connection. */
  broadcast: (method: 'lsp.diagnostics' | 'lsp.status', params: unknown) => void;
  /** Whether on-disk changes should be delivered (a server is running). */
  watch: (enabled: boolean) => void;
}

/**
 * Language servers of the workspace, one per language, started on the first file of it and stopped
 * after LSP_IDLE_STOP_MS; the filtered diagnostics of every file (lsp-pipeline.ts) cached until the
 * server that published them exits, and pushed to every connection as they change.
 */
export class LspService {
  private readonly servers = new Map<string, Server>();
  private readonly cache = new Map<string, FileDiagnostics>();
  private readonly pending = new Map<string, FileDiagnostics>();
  private notifyTimer: NodeJS.Timeout | null = null;
  private readonly waiters = new Set<() => void>();
  private closed = false;

  private readonly idleStopMs: number;

  constructor(
    private readonly paths: PathResolver,
    private readonly hooks: LspServiceHooks,
    /** Tests: another server table, a shorter idle stop. */
    opts: { specs?: ServerSpec[]; idleStopMs?: number } = {},
  ) {
    this.idleStopMs = opts.idleStopMs ?? LSP_IDLE_STOP_MS;
    for (const spec of opts.specs ?? SERVER_SPECS) {
      const found = spec.commands.map((c) => ({ ...c, path: which(c.bin) })).find((c) => c.path);
      const command = found?.path ? { bin: found.bin, path: found.path, args: found.args } : null;
      this.servers.set(spec.language, { spec, command, session: null, starting: null, state: 'stopped', docs: new Map(), idleTimer: null, restartTimer: null, crashes: 0, failedAt: 0, lastPublishAt: 0 });
    }
  }

  /** Installed servers only: a missing binary is absent from the list. */
  status(): { servers: LspServerStatus[] } {
    const servers: LspServerStatus[] = [];
    for (const s of this.servers.values()) if (s.command) servers.push({ language: s.spec.language, command: s.command.bin, state: s.state });
    return { servers };
  }

  async sync(p: { path: string; text?: string }): Promise<{ language: string | null }> {
    if (p?.text !== undefined && (typeof p.text !== 'string' || p.text.length > LSP_MAX_FILE_BYTES)) {
      fail('INVALID_ARGUMENT', `text must be a string of at most ${LSP_MAX_FILE_BYTES} characters`);
    }
    const rel = await this.rel(p?.path);
    const server = this.serverFor(rel);
    if (!server) return { language: null };
    const text = p.text ?? (await this.readDisk(rel));
    if (text === null) return { language: null };
    await this.open(server, rel, text, p.text !== undefined);
    return { language: server.spec.language };
  }

  async close(p: { path: string }): Promise<null> {
    const rel = await this.rel(p?.path);
    const server = this.serverFor(rel);
    const doc = server?.docs.get(rel);
    if (!server || !doc || !doc.fromEditor) return null;
    // Back to what is on disk: the agent and the Problems panel see the saved file.
    const text = await this.readDisk(rel);
    if (text === null) this.closeDoc(server, doc);
    else await this.open(server, rel, text, false);
    return null;
  }

  async diagnostics(p: LspDiagnosticsParams): Promise<LspDiagnosticsResult> {
    const waitMs = Math.min(Math.max(Number(p?.waitMs) || 0, 0), LSP_MAX_WAIT_MS);
    if (p?.paths !== undefined && !Array.isArray(p.paths)) fail('INVALID_ARGUMENT', 'paths must be an array');
    if (!p?.paths) return { files: [...this.cache.values()], ...this.status(), timedOut: false };
    const rels: string[] = [];
    for (const path of p.paths.slice(0, LSP_MAX_PATHS)) {
      const rel = await this.rel(path).catch(() => null);
      if (rel !== null && !rels.includes(rel)) rels.push(rel);
    }
    const watched: { server: Server; rel: string }[] = [];
    for (const rel of rels) {
      const server = this.serverFor(rel);
      if (!server) continue;
      const doc = server.docs.get(rel);
      // An editor's buffer wins over the disk; otherwise read it again (the agent just wrote it).
      const text = doc?.fromEditor ? doc.text : await this.readDisk(rel);
      if (text === null) continue;
      await this.open(server, rel, text, doc?.fromEditor ?? false).catch(() => undefined);
      if (server.docs.has(rel)) watched.push({ server, rel });
    }
    const settled = () => watched.every(({ server, rel }) => {
      const d = server.docs.get(rel);
      if (!d || !server.session?.alive) return true;
      return d.published >= d.version && Date.now() - server.lastPublishAt >= (server.spec.settleQuietMs ?? 0);
    });
    const timedOut = !(await this.waitFor(settled, waitMs));
    const files = watched.map(({ server, rel }) => this.cache.get(rel) ?? { path: rel, language: server.spec.language, diagnostics: [] });
    return { files, ...this.status(), timedOut };
  }

  async completion(p: LspPositionParams): Promise<LspCompletionList> {
    const raw = await this.positional(p, 'textDocument/completion', { context: { triggerKind: 1 } });
    return toCompletionList(raw);
  }

  async hover(p: LspPositionParams): Promise<LspHover | null> {
    return toHover(await this.positional(p, 'textDocument/hover'));
  }

  async definition(p: LspPositionParams): Promise<{ locations: LspLocation[] }> {
    return { locations: toLocations(await this.positional(p, 'textDocument/definition'), this.paths.root) };
  }

  /** On-disk changes (watch.service.ts): files open from disk are re-read, servers told of the rest. */
  async onDiskChanges(changes: FsChange[]): Promise<void> {
    const byServer = new Map<Server, { uri: string; type: number }[]>();
    for (const c of changes.slice(0, 1000)) {
      const server = this.serverFor(c.path);
      if (!server?.session?.alive) continue;
      const doc = server.docs.get(c.path);
      if (doc && !doc.fromEditor) {
        const text = c.kind === 'deleted' ? null : await this.readDisk(c.path);
        if (text === null) this.closeDoc(server, doc);
        else if (text !== doc.text) await this.open(server, c.path, text, false);
        continue;
      }
      const list = byServer.get(server) ?? [];
      list.push({ uri: fileUri(`${this.paths.root}/${c.path}`), type: c.kind === 'created' ? 1 : c.kind === 'deleted' ? 3 : 2 });
      byServer.set(server, list);
    }
    for (const [server, list] of byServer) server.session?.notify('workspace/didChangeWatchedFiles', { changes: list });
  }

  closeAll(): void {
    this.closed = true;
    for (const s of this.servers.values()) {
      if (s.idleTimer) clearTimeout(s.idleTimer);
      if (s.restartTimer) clearTimeout(s.restartTimer);
      void s.session?.stop();
    }
  }

  private async positional(p: LspPositionParams, method: string, extra: Record<string, unknown> = {}): Promise<unknown> {
    if (!Number.isInteger(p?.line) || !Number.isInteger(p?.column) || p.line < 1 || p.column < 1) fail('INVALID_ARGUMENT', 'line and column are 1-based integers');
    const rel = await this.rel(p.path);
    const server = this.serverFor(rel);
    if (!server) return null;
    if (!server.docs.has(rel)) {
      const text = await this.readDisk(rel);
      if (text === null) return null;
      await this.open(server, rel, text, false);
    }
    const session = await this.session(server);
    this.touch(server);
    const uri = server.docs.get(rel)?.uri ?? fileUri(`${this.paths.root}/${rel}`);
    return session
      .request(method, { textDocument: { uri }, position: { line: p.line - 1, character: p.column - 1 }, ...extra })
      .catch(() => null);
  }

  private async rel(p: unknown): Promise<string> {
    if (typeof p !== 'string' || !p) fail('INVALID_ARGUMENT', 'path must be a non-empty string');
    const { rel } = await this.paths.resolve(p).catch(() => this.paths.lexical(p));
    return rel;
  }

  private serverFor(rel: string): Server | null {
    const hit = specFor(rel, [...this.servers.values()].map((s) => s.spec));
    const server = hit ? this.servers.get(hit.spec.language) : undefined;
    return server?.command ? server : null;
  }

  private async readDisk(rel: string): Promise<string | null> {
    try {
      const { abs } = await this.paths.resolve(rel);
      const st = await stat(abs);
      if (!st.isFile() || st.size > LSP_MAX_FILE_BYTES) return null;
      return await readFile(abs, 'utf8');
    } catch {
      return null;
    }
  }

  /** didOpen or didChange (full text) in the file's server, starting it if need be. */
  private async open(server: Server, rel: string, text: string, fromEditor: boolean): Promise<void> {
    const session = await this.session(server);
    this.touch(server);
    const languageId = specFor(rel, [server.spec])?.languageId ?? 'plaintext';
    let doc = server.docs.get(rel);
    if (doc) {
      doc.fromEditor = fromEditor;
      doc.usedAt = Date.now();
      if (doc.text === text) return;
      doc.version++;
      doc.text = text;
      session.notify('textDocument/didChange', { textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [{ text }] });
      return;
    }
    if (server.docs.size >= LSP_MAX_OPEN_DOCS) this.evict(server);
    doc = { rel, uri: fileUri(`${this.paths.root}/${rel}`), languageId, version: 1, text, fromEditor, published: -1, usedAt: Date.now() };
    server.docs.set(rel, doc);
    session.notify('textDocument/didOpen', { textDocument: { uri: doc.uri, languageId, version: doc.version, text } });
  }

  private evict(server: Server): void {
    let oldest: Doc | null = null;
    for (const d of server.docs.values()) if (!d.fromEditor && (!oldest || d.usedAt < oldest.usedAt)) oldest = d;
    if (oldest) this.closeDoc(server, oldest);
  }

  private closeDoc(server: Server, doc: Doc): void {
    server.docs.delete(doc.rel);
    server.session?.notify('textDocument/didClose', { textDocument: { uri: doc.uri } });
    if (this.cache.delete(doc.rel)) this.queueNotify({ path: doc.rel, language: server.spec.language, diagnostics: [] });
  }

  // Async so that every refusal below is a rejection: the restart timer's `.catch` would not see a
  // synchronous throw, and an exception escaping a timer is uncaught in the daemon.
  private async session(server: Server): Promise<LspSession> {
    const cmd = server.command;
    if (this.closed || !cmd) fail('UNAVAILABLE', 'no language server here');
    if (server.session?.alive) return server.session;
    if (server.starting) return server.starting;
    if (server.state === 'failed' && Date.now() - server.failedAt < LSP_RETRY_FAILED_MS) {
      fail('UNAVAILABLE', `${cmd.bin} keeps exiting; trying again later`);
    }
    const session = new LspSession(server.spec, cmd.path, cmd.args, this.paths.root, {
      onDiagnostics: (p) => this.onPublish(server, p),
      onExit: (expected) => this.onExit(server, session, expected),
    });
    this.setState(server, 'starting');
    const start = session.start().then(
      () => {
        server.session = session;
        server.starting = null;
        server.crashes = 0;
        this.setState(server, 'running');
        this.hooks.watch(true);
        // A restart after a crash: give it back what it had open.
        for (const d of server.docs.values()) {
          d.published = -1;
          session.notify('textDocument/didOpen', { textDocument: { uri: d.uri, languageId: d.languageId, version: d.version, text: d.text } });
        }
        return session;
      },
      (err) => {
        server.starting = null;
        void session.stop();
        server.state = 'failed';
        server.failedAt = Date.now();
        this.broadcastStatus();
        throw err;
      },
    );
    server.starting = start;
    return start;
  }

  private touch(server: Server): void {
    if (server.idleTimer) clearTimeout(server.idleTimer);
    server.idleTimer = setTimeout(() => {
      server.idleTimer = null;
      server.docs.clear();
      void server.session?.stop();
    }, this.idleStopMs);
    server.idleTimer.unref();
  }

  private onPublish(server: Server, p: PublishParams): void {
    const rel = typeof p?.uri === 'string' ? normalizeUri(p.uri, this.paths.root) : null;
    if (rel === null) return;
    server.lastPublishAt = Date.now();
    const doc = server.docs.get(rel);
    if (doc) doc.published = Number.isInteger(p.version) ? (p.version as number) : doc.version;
    const fd: FileDiagnostics = { path: rel, language: server.spec.language, diagnostics: filterDiagnostics(p.diagnostics) };
    const had = this.cache.has(rel);
    if (fd.diagnostics.length) {
      if (had || this.cache.size < LSP_MAX_CACHED_FILES) this.cache.set(rel, fd);
    } else this.cache.delete(rel);
    if (had || fd.diagnostics.length) this.queueNotify(fd);
    for (const w of this.waiters) w();
  }

  private onExit(server: Server, session: LspSession, expected: boolean): void {
    if (server.session === session) server.session = null;
    // The cache is cleared with the server that filled it (the seed: no stale markers).
    const dropped: FileDiagnostics[] = [];
    for (const [rel, fd] of this.cache) {
      if (fd.language !== server.spec.language) continue;
      this.cache.delete(rel);
      this.pending.delete(rel);
      dropped.push({ ...fd, diagnostics: [] });
    }
    this.hooks.broadcast('lsp.diagnostics', { files: dropped, reset: true });
    for (const w of this.waiters) w();
    if (expected || this.closed || !server.docs.size) {
      server.docs.clear();
      this.setState(server, 'stopped');
    } else if (server.crashes >= RESTART_BACKOFF_MS.length) {
      server.failedAt = Date.now();
      this.setState(server, 'failed');
    } else {
      const delay = RESTART_BACKOFF_MS[server.crashes++];
      this.setState(server, 'starting');
      server.restartTimer = setTimeout(() => {
        server.restartTimer = null;
        void this.session(server).catch(() => undefined);
      }, delay);
      server.restartTimer.unref();
    }
    if (![...this.servers.values()].some((s) => s.session?.alive || s.starting)) this.hooks.watch(false);
  }

  private setState(server: Server, state: LspServerStatus['state']): void {
    if (server.state === state) return;
    server.state = state;
    this.broadcastStatus();
  }

  private broadcastStatus(): void {
    this.hooks.broadcast('lsp.status', this.status());
  }

  private queueNotify(fd: FileDiagnostics): void {
    this.pending.set(fd.path, fd);
    this.notifyTimer ??= setTimeout(() => {
      this.notifyTimer = null;
      const files = [...this.pending.values()];
      this.pending.clear();
      for (let i = 0; i < files.length; i += 100) this.hooks.broadcast('lsp.diagnostics', { files: files.slice(i, i + 100) });
    }, NOTIFY_COALESCE_MS);
  }

  /** Resolves true once `cond` holds (checked after every publish and every WAIT_POLL_MS), false after `ms`. */
  private waitFor(cond: () => boolean, ms: number): Promise<boolean> {
    if (cond()) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        this.waiters.delete(check);
        clearTimeout(timer);
        clearInterval(poll);
        resolve(ok);
      };
      const check = () => cond() && done(true);
      const timer = setTimeout(() => done(false), ms);
      // Quiet periods (settleQuietMs) end without a publish.
      const poll = setInterval(check, WAIT_POLL_MS);
      this.waiters.add(check);
    });
  }
}
