// The processes a checkpoint runs (find, git add, git commit), started by one long-lived shell
// instead of by sandboxd. Starting a process from sandboxd forks a ~90 MB Node process: 6 ms on the
// build machine's VM, during which sandboxd's event loop is blocked (uv_spawn is synchronous), so
// every request the agent makes meanwhile (its first read_file calls, which run beside the run's
// checkpoint) waited for it. The shell forks cheaply and off sandboxd's thread; sandboxd only
// writes a line to it and reads a line back (bench/runs, seventh pass).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

/** What the shell can be asked to do: fixed steps, never a command line from a caller. */
export type CheckpointStep = { step: 'large'; maxBytes: number } | { step: 'commit' };

/**
 * The steps, one per input line (`large <max bytes>`, `commit`); each answers `rc <exit code>`.
 * Output goes to files in the store ($GIT_DIR), so the answer line is the only thing on stdout.
 * (`git commit` would start `git maintenance run --auto` after each commit: one process more.)
 */
const SCRIPT = `
while IFS=' ' read -r step arg; do
  case "$step" in
    large) find . -path '*/.git' -prune -o -type f -size "+\${arg}c" -print0 >"$GIT_DIR/h-large" 2>"$GIT_DIR/h-stderr" ;;
    commit) { git add -A -- . && git -c maintenance.auto=false commit -q --allow-empty --no-verify -m 'h checkpoint'; } >/dev/null 2>"$GIT_DIR/h-stderr" ;;
    *) echo "unknown step: $step" >"$GIT_DIR/h-stderr"; false ;;
  esac
  echo "rc $?"
done`;

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  name: string;
}

export class CheckpointShell {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly pending: Pending[] = [];

  constructor(
    /** The workspace root (the shell's working directory). */
    private readonly cwd: string,
    /** GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, identities: fixed for the daemon's life. */
    private readonly env: Record<string, string>,
    private readonly timeoutMs: number,
  ) {}

  /** Runs one step; resolves when it exited 0, rejects with its stderr otherwise. */
  run(s: CheckpointStep): Promise<void> {
    const line = s.step === 'large' ? `large ${Math.max(0, Math.floor(s.maxBytes))}` : 'commit';
    const name = s.step === 'large' ? 'find' : 'git';
    const child = this.ensure();
    return new Promise<void>((resolve, reject) => {
      // A step that hangs (a huge tree, a stuck filesystem) must not hold checkpoints forever:
      // the shell and what it runs are killed, and the next step starts a new one.
      const timer = setTimeout(() => this.abort(child, new Error(`${name}: took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
      this.pending.push({ resolve, reject, timer, name });
      child.stdin.write(`${line}\n`);
    });
  }

  /** The find step's output: paths NUL-separated, as `find -print0` wrote them. */
  async largeFiles(): Promise<string> {
    return readFile(path.join(this.env.GIT_DIR, 'h-large'), 'utf8');
  }

  close(): void {
    const child = this.child;
    if (child) this.abort(child, new Error('sandboxd is closing'));
  }

  private ensure(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    // Its own process group, so a timeout kills what the shell started too.
    const child = spawn('/bin/sh', ['-c', SCRIPT], { cwd: this.cwd, env: this.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stderr.resume();
    child.stdin.on('error', () => undefined); // a dead shell: the exit handler fails what waits
    createInterface({ input: child.stdout }).on('line', (text) => void this.answer(text));
    child.on('exit', (code, signal) => this.gone(child, new Error(`the checkpoint shell exited (${signal ?? code})`)));
    child.on('error', (err) => this.gone(child, err));
    return child;
  }

  private async answer(text: string): Promise<void> {
    const p = this.pending.shift();
    if (!p) return;
    clearTimeout(p.timer);
    const rc = /^rc (\d+)$/.exec(text)?.[1];
    if (rc === '0') return p.resolve();
    const stderr = (await readFile(path.join(this.env.GIT_DIR, 'h-stderr'), 'utf8').catch(() => '')).trim();
    p.reject(new Error(`${p.name}: ${stderr || `exit ${rc ?? text}`}`));
  }

  private abort(child: ChildProcessWithoutNullStreams, err: Error): void {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    this.gone(child, err);
  }

  /** The shell is gone: everything waiting on it fails, and the next step starts another. */
  private gone(child: ChildProcessWithoutNullStreams, err: Error): void {
    if (this.child !== child) return;
    this.child = null;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(err);
    }
  }
}
