import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { sandboxdEnv } from '@h/config/sandboxd';
import type { GrepMatch } from '@h/contracts';
import { compileUserPattern, SEARCH_BUDGET_MS, type LinearPattern } from '@h/patterns';
import type { FsFindParams, FsFindResult, FsGrepParams, FsGrepResult } from '@h/sandbox-protocol';
import { InvalidGlobError, nameMatcher } from '@h/workspace-fs';
import { fail, mapFsError } from './errors';
import type { FsService } from './fs.service';
import type { PathResolver } from './path-resolver';

const DEFAULT_MAX_RESULTS = 500;

export class SearchService {
  private rgAvailable: boolean | null = null;

  constructor(
    private readonly paths: PathResolver,
    private readonly fs: FsService,
    private readonly rgPath = sandboxdEnv().SANDBOXD_RG,
    private readonly searchBudgetMs = SEARCH_BUDGET_MS,
  ) {}

  /**
   * Entries (files and directories, like LocalWorkspace) whose name, or for patterns with '/' the
   * relative path, matches a glob or contains the substring (case-insensitive). Depth-first, sorted.
   */
  async find(p: FsFindParams): Promise<FsFindResult> {
    if (!p.pattern) fail('INVALID_ARGUMENT', 'pattern must not be empty');
    const start = await this.paths.resolve(p.path || '.');
    const max = Math.max(1, p.maxResults ?? DEFAULT_MAX_RESULTS);
    // The seed's search_files rule, shared with LocalWorkspace: names (paths for patterns with
    // '/'), by substring or glob, case-insensitive.
    const matches = orInvalidGlob(() => nameMatcher(p.pattern));
    const out: string[] = [];
    try {
      const st = await stat(start.abs);
      if (!st.isDirectory()) fail('NOT_DIRECTORY', `${p.path}: not a directory`);
    } catch (e) {
      return mapFsError(e, p.path ?? '.');
    }
    const truncated = await this.fs.walk(start.abs, true, (e) => {
      if (!matches(e)) return true;
      if (out.length >= max) return false;
      out.push(e.path);
      return true;
    });
    return { paths: out, truncated };
  }

  async grep(p: FsGrepParams): Promise<FsGrepResult> {
    if (!p.pattern) fail('INVALID_ARGUMENT', 'pattern must not be empty');
    const target = await this.paths.resolve(p.path || '.');
    const max = Math.max(1, p.maxResults ?? DEFAULT_MAX_RESULTS);
    const rel = target.rel || '.';
    if (this.rgAvailable === null) this.rgAvailable = await probe(this.rgPath);
    return this.rgAvailable ? this.ripgrep(p, rel, max) : this.gnuGrep(p, rel, max);
  }

  private ripgrep(p: FsGrepParams, rel: string, max: number): Promise<FsGrepResult> {
    // --json: paths may contain ':' so the plain output format is ambiguous.
    // --no-ignore: .gitignore and .ignore files decide nothing, as with GNU grep and LocalWorkspace;
    // every driver skips the same directories (SKIPPED_DIRECTORIES) and nothing else.
    const args = ['--json', '--hidden', '--no-ignore', '-g', '!.git', '-g', '!node_modules', '--max-columns', '2000', '--max-columns-preview'];
    if (p.ignoreCase) args.push('-i');
    if (p.fixedString) args.push('-F');
    if (p.glob) args.push('-g', p.glob);
    args.push('-e', p.pattern, '--', rel);
    return this.collect(this.rgPath, args, max, (line) => {
      const msg = JSON.parse(line);
      if (msg.type !== 'match') return null;
      const d = msg.data;
      const text: string = (d.lines.text ?? '').replace(/\r?\n$/, '');
      const startByte: number = d.submatches?.[0]?.start ?? 0;
      const column = Buffer.from(text, 'utf8').subarray(0, startByte).toString('utf8').length + 1;
      return { path: normalizeRel(d.path.text), line: d.line_number, column, text };
    });
  }

  // Fallback for the local driver on hosts without ripgrep.
  private gnuGrep(p: FsGrepParams, rel: string, max: number): Promise<FsGrepResult> {
    const args = ['-rnIZ', '--exclude-dir=.git', '--exclude-dir=node_modules'];
    if (p.ignoreCase) args.push('-i');
    args.push(p.fixedString ? '-F' : '-E');
    if (p.glob) args.push(`--include=${p.glob}`);
    args.push('-e', p.pattern, '--', rel);
    // Only for the column: on RE2 (linear time, capped line), never JS RegExp on the daemon's loop.
    let re: LinearPattern | null = null;
    try {
      re = compileUserPattern(p.pattern, { ignoreCase: p.ignoreCase, fixedString: p.fixedString });
    } catch {
      re = null;
    }
    return this.collect('grep', args, max, (line) => {
      const z = line.indexOf('\0');
      if (z < 0) return null;
      const rest = line.slice(z + 1);
      const colon = rest.indexOf(':');
      const text = rest.slice(colon + 1);
      const at = re ? re.search(text) : -1;
      return { path: normalizeRel(line.slice(0, z)), line: Number(rest.slice(0, colon)), column: Math.max(at, 0) + 1, text };
    });
  }

  private collect(
    cmd: string,
    args: string[],
    max: number,
    parse: (line: string) => GrepMatch | null,
  ): Promise<FsGrepResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { cwd: this.paths.root, stdio: ['ignore', 'pipe', 'pipe'] });
      const matches: GrepMatch[] = [];
      let truncated = false;
      // A search child that runs past the budget (a huge tree, a slow pattern under GNU grep's
      // backreferences) is killed and what it found so far is returned as truncated.
      const budget = setTimeout(() => {
        truncated = true;
        child.kill('SIGKILL');
      }, this.searchBudgetMs);
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => {
        if (stderr.length < 4096) stderr += b.toString();
      });
      const rl = createInterface({ input: child.stdout });
      rl.on('line', (line) => {
        if (truncated) return;
        let m: GrepMatch | null = null;
        try {
          m = parse(line);
        } catch {
          return;
        }
        if (!m) return;
        if (matches.length >= max) {
          truncated = true;
          child.kill('SIGKILL');
          return;
        }
        matches.push(m);
      });
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(budget);
        // Exit 1 = no match; 2 = error (bad regex, unreadable path) unless we killed it.
        if (code === 2 && !truncated && matches.length === 0) {
          reject(Object.assign(new Error(stderr.trim() || 'search failed'), { code: 'EINVAL' }));
          return;
        }
        resolve({ matches, truncated });
      });
    }).catch((e) => {
      fail('INVALID_ARGUMENT', e instanceof Error ? e.message : String(e));
    }) as Promise<FsGrepResult>;
  }
}

function orInvalidGlob<T>(compile: () => T): T {
  try {
    return compile();
  } catch (e) {
    if (e instanceof InvalidGlobError) return fail('INVALID_ARGUMENT', e.message);
    throw e;
  }
}

function normalizeRel(p: string): string {
  return p.replace(/^\.\//, '');
}

function probe(cmd: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = spawn(cmd, ['--version'], { stdio: 'ignore' });
    c.on('error', () => resolve(false));
    c.on('close', (code) => resolve(code === 0));
  });
}
