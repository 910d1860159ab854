import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pickHostEnv } from '@h/config';
import { SandboxClient } from './sandbox-client';
import type { ReconcileReport, SandboxDriver, SandboxRecord, SandboxSpec, SandboxStatus } from './sandbox-driver';
import { repoRoot } from './sandbox-image';
import { openUnixSocketStream } from './transports';

export interface LocalSandboxOptions {
  /** Workspaces live in `<baseDir>/<workspaceId>`. */
  baseDir: string;
  /** H runs for several users: refused unless allowUnsafe (the config's H_ALLOW_LOCAL_SANDBOX). */
  multiUser: boolean;
  allowUnsafe?: boolean;
  /**
   * The sandboxd bundle. Default: in a source checkout, bundled from apps/sandboxd once per process
   * into a temp dir; otherwise dist/sandboxd/sandboxd.js.
   */
  sandboxdPath?: string;
  /** Longest JSON-RPC line accepted from a sandbox (default HOST_RPC_MAX_LINE_BYTES). */
  rpcMaxLineBytes?: number;
}

export class LocalSandboxRefusedError extends Error {
  constructor() {
    super('the local sandbox driver gives no isolation and is refused in multi-user mode; set H_ALLOW_LOCAL_SANDBOX=1 to override');
    this.name = 'LocalSandboxRefusedError';
  }
}

/**
 * UNSAFE: sandboxd as a child process confined to a directory by path checks only; commands run as
 * the H process's user on the host. For single-user development without Docker. Every record and
 * status it returns says `unsafe: true`.
 */
export class LocalSandboxDriver implements SandboxDriver {
  readonly kind = 'local' as const;
  readonly unsafe = true;
  private readonly procs = new Map<string, ChildProcess>();
  private readonly clients = new Map<string, SandboxClient>();
  private sandboxd: string;
  private built = false;

  constructor(private readonly opts: LocalSandboxOptions) {
    if (opts.multiUser && !opts.allowUnsafe) {
      throw new LocalSandboxRefusedError();
    }
    this.sandboxd = opts.sandboxdPath ?? path.join(repoRoot(), 'dist/sandboxd/sandboxd.js');
  }

  async ensure(spec: SandboxSpec, record?: SandboxRecord | null): Promise<SandboxRecord> {
    const r: SandboxRecord = record ?? {
      driver: 'local',
      workspaceId: spec.workspaceId,
      teamId: spec.teamId,
      name: `local-${spec.workspaceId}`,
      volume: path.join(this.opts.baseDir, spec.workspaceId),
      network: 'host',
      createdAt: new Date().toISOString(),
      unsafe: true,
    };
    return this.start(r);
  }

  async start(record: SandboxRecord): Promise<SandboxRecord> {
    mkdirSync(record.volume, { recursive: true });
    const own = this.procs.get(record.name);
    const ownAlive = own && own.exitCode === null && own.signalCode === null;
    // Another process (the api next to the worker) may already serve this directory: join it
    // rather than start a second daemon that would steal its socket.
    if (!ownAlive && !(await this.openClient(record, 0).catch(() => null))) {
      this.buildOnce();
      const child = spawn(process.execPath, [this.sandboxd, '--root', record.volume, '--socket', this.socketPath(record)], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { LANG: 'C.UTF-8', ...pickHostEnv(['PATH', 'HOME', 'LANG']), SANDBOXD_STATE_DIR: localStateDir(record), SANDBOXD_SNAPSHOT_DIR: path.join(localStateDir(record), 'snapshots') },
      });
      this.procs.set(record.name, child);
      child.on('exit', () => {
        if (this.procs.get(record.name) === child) this.procs.delete(record.name);
      });
    }
    await this.connect(record);
    return { ...record, unsafe: true };
  }


  async stop(record: SandboxRecord): Promise<void> {
    this.clients.get(record.name)?.close();
    this.clients.delete(record.name);
    const p = this.procs.get(record.name);
    if (p && p.exitCode === null) {
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGTERM');
      await exited;
    }
  }

  async remove(record: SandboxRecord, options: { keepVolume?: boolean } = {}): Promise<void> {
    await this.stop(record);
    if (!options.keepVolume) {
      rmSync(record.volume, { recursive: true, force: true });
      rmSync(localStateDir(record), { recursive: true, force: true });
    }
  }

  async status(record: SandboxRecord): Promise<SandboxStatus> {
    const p = this.procs.get(record.name);
    const live = (p && p.exitCode === null) || !!(await this.openClient(record, 0).catch(() => null));
    const state = live ? 'running' : existsSync(record.volume) ? 'stopped' : 'missing';
    return { state, driver: 'local', unsafe: true };
  }

  async connect(record: SandboxRecord): Promise<SandboxClient> {
    const open = this.clients.get(record.name);
    if (open && !open.closed) return open;
    const joined = await this.openClient(record, 0).catch(() => null);
    if (joined) return joined;
    if (!this.procs.has(record.name)) await this.start(record);
    return this.clients.get(record.name) ?? this.openClient(record, 10_000);
  }

  isConnected(record: SandboxRecord): boolean {
    const client = this.clients.get(record.name);
    return Boolean(client && !client.closed);
  }

  /** Connects to the directory's daemon; `waitMs` 0 = one attempt (is one running?). */
  private async openClient(record: SandboxRecord, waitMs: number): Promise<SandboxClient> {
    const s = await openUnixSocketStream(this.socketPath(record), waitMs);
    const client = new SandboxClient(s.input, s.output, () => s.dispose?.(), { maxLineBytes: this.opts.rpcMaxLineBytes });
    await client.call('health', {});
    this.clients.set(record.name, client);
    client.on('close', () => {
      if (this.clients.get(record.name) === client) this.clients.delete(record.name);
    });
    return client;
  }


  async claimWarm(): Promise<SandboxRecord | null> {
    return null; // starting a local daemon is already cheap
  }

  async reconcile(): Promise<ReconcileReport> {
    return { removedContainers: [], adoptedPool: [], orphanVolumes: [], removedVolumes: [] };
  }

  async close(): Promise<void> {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
    for (const p of this.procs.values()) p.kill('SIGTERM');
    this.procs.clear();
  }

  /** In a source checkout, bundle the current daemon once per process (about half a second). */
  private buildOnce(): void {
    if (this.built) return;
    const script = path.join(repoRoot(), 'apps/sandboxd/build.mjs');
    if (!this.opts.sandboxdPath && existsSync(script)) {
      // A private output dir: build-image.sh rewrites dist/sandboxd concurrently (parallel tests).
      const out = path.join(os.tmpdir(), `h-sandboxd-${process.pid}`);
      execFileSync(process.execPath, [script, out], { stdio: 'inherit' });
      this.sandboxd = path.join(out, 'sandboxd.js');
    } else if (!existsSync(this.sandboxd)) {
      throw new Error(`sandboxd bundle not found at ${this.sandboxd}`);
    }
    this.built = true;
  }

  private socketPath(record: SandboxRecord): string {
    // Unix socket paths are limited to ~107 bytes: keep them short and per record.
    const h = createHash('sha256').update(record.volume).digest('hex').slice(0, 16);
    return path.join(os.tmpdir(), `h-sbx-${h}.sock`);
  }
}

/** The workspace's H-internal state (checkpoints, graph snapshots): a sibling of its directory, never inside it. */
function localStateDir(record: SandboxRecord): string {
  return `${record.volume}.h-state`;
}
