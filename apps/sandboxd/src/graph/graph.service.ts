// The workspace's knowledge graph, kept by sandboxd: a full build when the daemon starts (or on the
// first graph request), then updates from the file watcher, debounced, re-parsing only the files
// that changed (every file's facts are cached; assembling the graph from them is cheap). Each
// build writes the seed's snapshot pair, ~/.h/snapshots/file-tree-snapshot-<md5(root)>.kg and .txt.
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { GraphStatus } from '@h/contracts';
import type { FsChange, GraphQueryParams, GraphQueryResult } from '@h/sandbox-protocol';
import { fail } from '../errors';
import type { PathResolver } from '../path-resolver';
import { buildGraph } from './graph-builder';
import type { Resolution } from './module-resolver';
import { isGraphFile, isGraphSkippedDir, isInGraph } from './graph-filter';
import type { FileFacts, KnowledgeGraph } from './graph-model';
import { GraphIndex, isGraphQuery } from './graph-query';
import { KgRenderer, parseKg } from './kg-format';
import { parsePython, PY_EXTENSIONS } from './py-parser';
import { parseTypeScript, TS_EXTENSIONS } from './ts-parser';
import { type PathAlias, readPathAliases } from './tsconfig-paths';

/** Changes are gathered this long after the last one before the graph is updated (the seed's watcher debounce is 2 s; edits by the agent want it sooner). */
export const GRAPH_DEBOUNCE_MS = 300;
/** Larger files are nodes without symbols (a generated bundle would cost seconds to parse). */
export const GRAPH_MAX_PARSE_BYTES = 1024 * 1024;
/**
 * Files in the graph at most; a workspace beyond it is graphed up to here. The snapshot costs ~1.4
 * KB per file in ~/.h, a tmpfs that counts against the container's memory.
 */
export const GRAPH_MAX_FILES = 20_000;
/** A query waits this long at most for pending changes before answering from the graph it has. */
const FRESH_WAIT_MS = 10_000;
/** Files read at once in a full build; the event loop is yielded between batches so other requests go on. */
const READ_BATCH = 64;

export function languageOf(rel: string): FileFacts['language'] | null {
  if (TS_EXTENSIONS.some((e) => rel.endsWith(e))) return 'ts';
  if (PY_EXTENSIONS.some((e) => rel.endsWith(e))) return 'py';
  return null;
}

export function parseFile(rel: string, text: string): FileFacts | null {
  const lang = languageOf(rel);
  return lang === 'ts' ? parseTypeScript(text, rel) : lang === 'py' ? parsePython(text) : null;
}

/** The seed's snapshot name: the MD5 of the resolved root, so the same folder always maps to the same file. */
export function snapshotBase(snapshotsDir: string, root: string): string {
  const hash = createHash('md5').update(path.resolve(root)).digest('hex').slice(0, 12);
  return path.join(snapshotsDir, `file-tree-snapshot-${hash}`);
}

export interface GraphServiceOptions {
  /** Where the snapshots go; default ~/.h/snapshots. */
  snapshotsDir?: string;
  debounceMs?: number;
  /** Resolves when the file watcher has delivered every change it heard (a fresh query waits for it). */
  watcherDrained?: () => Promise<void>;
}

export class GraphService {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();
  private readonly facts = new Map<string, FileFacts>();
  /** Each file's imports resolved (see GraphInput.resolutions); kept while the file set stays the same. */
  private readonly resolutions = new Map<string, Resolution[]>();
  private aliases: PathAlias[] = [];
  private readonly renderer = new KgRenderer();
  private index: GraphIndex | null = null;
  private readonly pending = new Set<string>();
  private rescan = false;
  private started = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly waiters = new Set<() => void>();
  private closed = false;
  private current: Omit<GraphStatus, 'updating'> = { state: 'building', files: 0, symbols: 0, builtAt: null, lastBuildMs: null, error: null };
  readonly snapshotsDir: string;
  private readonly debounceMs: number;

  constructor(
    private readonly paths: PathResolver,
    private readonly opts: GraphServiceOptions = {},
  ) {
    this.snapshotsDir = opts.snapshotsDir ?? path.join(homedir(), '.h', 'snapshots');
    this.debounceMs = opts.debounceMs ?? GRAPH_DEBOUNCE_MS;
  }

  /** The .kg and .txt paths without their extension. */
  get snapshotPath(): string {
    return snapshotBase(this.snapshotsDir, this.paths.root);
  }

  /** Starts the first build (idempotent); later changes come through onChanges. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.rescan = true;
    this.kick();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiters) w();
  }

  status(): GraphStatus {
    this.start();
    return { ...this.current, updating: this.current.state !== 'building' && this.busy() };
  }

  /** The watcher's flushed changes (overflow: some were dropped, so everything is walked again). */
  onChanges(changes: FsChange[], overflow = false): void {
    if (!this.started || this.closed) return;
    if (overflow) this.rescan = true;
    for (const c of changes) this.pending.add(c.path.replace(/\/$/, ''));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.debounceMs);
  }

  async query(p: GraphQueryParams): Promise<GraphQueryResult> {
    if (!p || !isGraphQuery(p.query)) fail('INVALID_ARGUMENT', `query must be one of structure, exports, imports_of, exporters_of, dependents, unused_imports`);
    this.start();
    if (p.fresh !== false) {
      // A query right after a write (the agent's write_file, then read_graph): the change may still
      // sit in the watcher's or this service's debounce. Take it in now rather than answer stale.
      await this.opts.watcherDrained?.();
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
        this.kick();
      }
      await this.settled(FRESH_WAIT_MS);
    }
    const status = this.status();
    const arg = typeof p.arg === 'string' ? p.arg : '';
    if (this.index) return { text: this.index.query(p.query, arg), status };
    // The first build is still running (a large repository): the snapshot an earlier daemon wrote
    // for this root, if any, answers meanwhile (the seed's read_graph reads the .kg file).
    const stored = await this.storedIndex();
    if (stored) return { text: `${stored.index.query(p.query, arg)}\n(from the snapshot of ${stored.at}; the graph is being rebuilt)`, status };
    const why = status.state === 'error' ? `the graph could not be built: ${status.error}` : 'the graph is still being built; ask again shortly';
    return { text: `No knowledge graph yet (${why})`, status };
  }

  private async storedIndex(): Promise<{ index: GraphIndex; at: string } | null> {
    try {
      const file = `${this.snapshotPath}.kg`;
      const [text, st] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      return { index: new GraphIndex(parseKg(text)), at: st.mtime.toISOString() };
    } catch {
      return null;
    }
  }

  /** Resolves when no build or update is due (or `maxMs` passed), i.e. the graph reflects every change heard. */
  settled(maxMs = FRESH_WAIT_MS): Promise<void> {
    if (!this.busy() || maxMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, maxMs);
      this.waiters.add(done);
    });
  }

  /** The graph as last built (tests and the bench read it). */
  get graph(): KnowledgeGraph | null {
    return this.index?.graph ?? null;
  }

  /** A full walk and parse now, then the snapshot written (the first build, and the bench). */
  async rebuild(): Promise<void> {
    this.started = true;
    this.rescan = true;
    this.kick();
    while (this.busy() && !this.closed) await this.settled();
  }

  /** Folds these workspace-relative paths in now, without the debounce (the bench). */
  async update(rels: string[]): Promise<void> {
    for (const r of rels) this.pending.add(r);
    this.kick();
    while (this.busy() && !this.closed) await this.settled();
  }

  private busy(): boolean {
    return !!this.running || !!this.timer || this.pending.size > 0 || this.rescan;
  }

  private kick(): void {
    if (this.running || this.closed) return;
    this.running = this.loop().finally(() => {
      this.running = null;
      if (!this.busy()) for (const w of [...this.waiters]) w();
    });
  }

  private async loop(): Promise<void> {
    while (!this.closed && !this.timer && (this.rescan || this.pending.size)) {
      const startedAt = performance.now();
      try {
        if (this.rescan) {
          this.rescan = false;
          this.pending.clear();
          await this.walkAll();
        } else {
          const rels = [...this.pending];
          this.pending.clear();
          for (const rel of rels) await this.apply(rel);
        }
        await this.publish(performance.now() - startedAt);
      } catch (e) {
        this.current = { ...this.current, state: 'error', lastBuildMs: Math.round(performance.now() - startedAt), error: e instanceof Error ? e.message : String(e) };
      }
    }
  }

  private async walkAll(): Promise<void> {
    this.resolutions.clear();
    this.aliases = await readPathAliases(this.paths.root);
    this.files.clear();
    this.dirs.clear();
    this.facts.clear();
    const found: string[] = [];
    await this.walkDir('', found);
    for (let i = 0; i < found.length; i += READ_BATCH) {
      await Promise.all(found.slice(i, i + READ_BATCH).map((rel) => this.parse(rel)));
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** Adds a directory's dirs and files (recursively) to the sets; code files to parse go to `found`. */
  private async walkDir(rel: string, found: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(rel ? path.join(this.paths.root, rel) : this.paths.root, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (isGraphSkippedDir(e.name)) continue;
        this.add(this.dirs, child);
        await this.walkDir(child, found);
      } else if (e.isFile() && isGraphFile(e.name) && this.files.size < GRAPH_MAX_FILES) {
        this.add(this.files, child);
        if (languageOf(child)) found.push(child);
      }
    }
  }

  private async parse(rel: string): Promise<void> {
    this.resolutions.delete(rel);
    const abs = path.join(this.paths.root, rel);
    try {
      const st = await lstat(abs);
      if (!st.isFile() || st.size > GRAPH_MAX_PARSE_BYTES) {
        this.facts.delete(rel);
        return;
      }
      const facts = parseFile(rel, await readFile(abs, 'utf8'));
      if (facts) this.facts.set(rel, facts);
      else this.facts.delete(rel);
    } catch {
      this.facts.delete(rel);
    }
  }

  /** One changed path: gone (with everything under it), a new directory (walked), or a file (re-parsed). */
  private async apply(rel: string): Promise<void> {
    if (!rel || rel.startsWith('..')) return;
    if (/^tsconfig[^/]*\.json$/.test(rel)) {
      // The root tsconfig (or one it extends) changed: its aliases may point elsewhere now.
      this.aliases = await readPathAliases(this.paths.root);
      this.resolutions.clear();
    }
    const st = await lstat(path.join(this.paths.root, rel)).catch(() => null);
    if (!st || !isInGraph(rel, st.isDirectory())) {
      this.remove(rel);
      return;
    }
    if (!this.addParents(rel)) return;
    if (st.isDirectory()) {
      this.add(this.dirs, rel);
      const found: string[] = [];
      await this.walkDir(rel, found);
      for (const f of found) await this.parse(f);
    } else if (st.isFile()) {
      this.add(this.files, rel);
      if (languageOf(rel)) await this.parse(rel);
    }
  }

  /** Directories on the way to a new path; false when one of them is out of the graph's scope. */
  private addParents(rel: string): boolean {
    const parts = rel.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (isGraphSkippedDir(parts[i - 1])) return false;
      this.add(this.dirs, dir);
    }
    return true;
  }

  /** A path that is new to the graph may be what some import was looking for: resolve all again. */
  private add(set: Set<string>, rel: string): void {
    if (set.has(rel)) return;
    set.add(rel);
    this.resolutions.clear();
  }

  private remove(rel: string): void {
    this.resolutions.clear();
    const prefix = `${rel}/`;
    for (const set of [this.files, this.dirs]) for (const p of set) if (p === rel || p.startsWith(prefix)) set.delete(p);
    for (const p of this.facts.keys()) if (p === rel || p.startsWith(prefix)) this.facts.delete(p);
  }

  /** Assembles the graph from the cached facts and writes the snapshot pair (each file replaced whole). */
  private async publish(elapsedMs: number): Promise<void> {
    const t0 = performance.now();
    const graph = buildGraph({ root: this.paths.root, files: this.files, dirs: this.dirs, facts: this.facts, resolutions: this.resolutions, aliases: this.aliases });
    const base = this.snapshotPath;
    await mkdir(path.dirname(base), { recursive: true });
    const { kg, txt, txtChanged } = this.renderer.render(graph);
    const writes: [string, string][] = [['.kg', kg]];
    if (txtChanged || !this.index) writes.push(['.txt', txt]);
    for (const [ext, text] of writes) {
      const tmp = `${base}${ext}.${process.pid}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, `${base}${ext}`);
    }
    this.index = new GraphIndex(graph);
    let symbols = 0;
    for (const n of graph.nodes) if (n.type === 'symbol') symbols++;
    this.current = {
      state: 'ready',
      files: this.files.size,
      symbols,
      builtAt: new Date().toISOString(),
      lastBuildMs: Math.round(elapsedMs + performance.now() - t0),
      error: null,
    };
  }
}
