import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { MessageConnection } from 'vscode-jsonrpc/lib/common/api';
import { sanitizedEnv, withRaisedOomScore } from '../process-utils';
import { fileUri } from './lsp-pipeline';
import type { ServerSpec } from './lsp-servers';

// The package's `./node` export is invisible to this repo's classic module resolution (no `exports`
// support), so the types come from its file and the value from the export (esbuild and Node resolve it).
const { createMessageConnection, StreamMessageReader, StreamMessageWriter }: typeof import('vscode-jsonrpc/lib/node/main') = require('vscode-jsonrpc/node');

/** How long a server may take to answer `initialize` (pyright indexes first). */
export const LSP_INITIALIZE_TIMEOUT_MS = 60_000;
/** Completion, hover and definition give up after this; the editor asks again on the next keystroke. */
export const LSP_REQUEST_TIMEOUT_MS = 5_000;
/** A server's stderr kept for the log at most (it is a child of sandboxd; nothing reads it but us). */
const STDERR_KEEP_BYTES = 8 * 1024;

export interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: unknown;
}

/** Reads a dotted section ("python.analysis") out of a settings object (workspace/configuration). */
export function section(settings: Record<string, unknown>, name: string | undefined): unknown {
  if (!name) return settings;
  let cur: unknown = settings;
  for (const key of name.split('.')) {
    if (!cur || typeof cur !== 'object') return null;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur ?? null;
}

/**
 * One language server process (a child of sandboxd, stdio JSON-RPC through vscode-jsonrpc): start
 * with initialize/initialized and the language's settings, document notifications, requests with a
 * timeout, and an exit callback. Knows nothing of caches or idleness (LspService does).
 */
export class LspSession {
  private proc: ChildProcess | null = null;
  private conn: MessageConnection | null = null;
  private stderr = '';
  private exited = false;
  readonly settings: Record<string, unknown>;

  constructor(
    readonly spec: ServerSpec,
    readonly bin: string,
    private readonly args: string[],
    private readonly root: string,
    private readonly handlers: { onDiagnostics: (p: PublishParams) => void; onExit: (expected: boolean, detail: string) => void },
  ) {
    this.settings = spec.settings?.(root, bin) ?? {};
  }

  private stopping = false;

  async start(): Promise<void> {
    // Like every command: the sanitized environment, and first in line for the OOM killer (a
    // language server on a huge project must not take sandboxd down with it).
    const [file, ...argv] = withRaisedOomScore([this.bin, ...this.args]);
    const proc = spawn(file, argv, { cwd: this.root, stdio: ['pipe', 'pipe', 'pipe'], env: sanitizedEnv() });
    this.proc = proc;
    const { stdin, stdout, stderr } = proc as ChildProcessWithoutNullStreams;
    stderr.on('data', (b: Buffer) => {
      this.stderr = (this.stderr + b.toString('utf8')).slice(-STDERR_KEEP_BYTES);
    });
    const conn = createMessageConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
    this.conn = conn;
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishParams) => this.handlers.onDiagnostics(p));
    // Server-to-client requests: settings, capability registration, progress tokens, folders.
    conn.onRequest('workspace/configuration', (p: { items?: { section?: string }[] }) =>
      (Array.isArray(p?.items) ? p.items : []).slice(0, 100).map((i) => section(this.settings, i?.section)),
    );
    conn.onRequest('workspace/workspaceFolders', () => [{ uri: fileUri(this.root), name: 'workspace' }]);
    conn.onRequest(() => null);
    conn.onNotification(() => undefined);
    conn.onError(() => undefined);
    proc.on('error', () => this.exit());
    proc.on('exit', () => this.exit());
    stdin.on('error', () => undefined);
    conn.listen();
    const init = conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: fileUri(this.root),
      rootPath: this.root,
      workspaceFolders: [{ uri: fileUri(this.root), name: 'workspace' }],
      initializationOptions: this.spec.initializationOptions?.(this.root, this.bin) ?? {},
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true }, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: {
          synchronization: { didSave: true, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: false, versionSupport: true },
          completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] }, contextSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          definition: { linkSupport: false },
        },
        window: { workDoneProgress: true },
      },
    });
    await withTimeout(init, LSP_INITIALIZE_TIMEOUT_MS, `${this.bin} did not answer initialize`);
    await conn.sendNotification('initialized', {});
    if (Object.keys(this.settings).length) await conn.sendNotification('workspace/didChangeConfiguration', { settings: this.settings });
  }

  get alive(): boolean {
    return !this.exited && !!this.conn;
  }

  notify(method: string, params: unknown): void {
    if (this.exited || !this.conn) return;
    void this.conn.sendNotification(method, params).catch(() => undefined);
  }

  async request<T>(method: string, params: unknown, timeoutMs = LSP_REQUEST_TIMEOUT_MS): Promise<T | null> {
    if (this.exited || !this.conn) return null;
    return withTimeout(this.conn.sendRequest<T>(method, params), timeoutMs, `${method} timed out`);
  }

  /** shutdown + exit, then a kill if the server lingers. */
  async stop(): Promise<void> {
    const conn = this.conn;
    if (this.exited || !conn) return;
    this.stopping = true;
    const proc = this.proc;
    try {
      await withTimeout(conn.sendRequest('shutdown'), 2000, 'shutdown');
      await conn.sendNotification('exit');
    } catch {
      // killed below
    }
    const timer = setTimeout(() => proc?.kill('SIGKILL'), 2000);
    timer.unref();
    if (!this.exited) proc?.kill('SIGTERM');
  }

  private exit(): void {
    if (this.exited) return;
    this.exited = true;
    this.conn?.dispose();
    this.handlers.onExit(this.stopping, this.stderr.trim().split('\n').slice(-5).join('\n'));
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(message)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
