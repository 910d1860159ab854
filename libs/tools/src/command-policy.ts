// run_command is for commands that finish: builds, tests, linters, git. Servers, watchers and
// interactive programs never exit, so they would only burn the timeout; the seed blocks them and
// points the model at a terminal instead. The command line is tokenized as a shell does
// (shell-quote), and only the programs that run are judged: a '&' or the word "serve" inside a
// quoted argument (`curl "…?a=1&b=2"`, `git log --grep serve`) is data, not a server.
// The command is the model's text: only its first POLICY_MAX_CHARS are judged (a longer one is
// almost always a heredoc writing a file, and what it starts is decided by its first line anyway).
import { MAX_MATCH_LINE_CHARS } from '@h/patterns';
import { parse, type ParseEntry } from 'shell-quote';

const POLICY_MAX_CHARS = MAX_MATCH_LINE_CHARS * 4;

type Argv = readonly string[];

/** One simple command: its words, and whether its stdin comes from a pipe or a redirection. */
interface SimpleCommand {
  argv: Argv;
  fedStdin: boolean;
}

// Operators that end one simple command and start the next.
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '(', ')', '&']);
// Redirections: the next word is their target, not an argument.
const REDIRECTS = new Set(['>', '>>', '<', '<<', '<<<', '>&', '<&', '&>', '&>>', '>|', '<(', '<>']);
// Prefixes that run the rest of the line as the program (their own flags skipped).
const WRAPPERS = new Set(['sudo', 'time', 'env', 'exec', 'command', 'nice', 'ionice', 'stdbuf', 'xargs']);
const BACKGROUND_WRAPPERS = new Set(['nohup', 'setsid', 'disown']);
const PACKAGE_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const SERVER_SCRIPT = /^(start|dev|serve|watch|preview)(:|$)/;
const DEV_SERVERS = new Set(['webpack-dev-server', 'nodemon', 'serve', 'http-server', 'live-server', 'browser-sync']);
const FRAMEWORK_CLIS = new Set(['next', 'nuxt', 'nuxi', 'astro', 'remix']);
const PY_SERVERS = new Set(['uvicorn', 'gunicorn', 'hypercorn', 'daphne']);
// `--watch` means watch mode for all of these; `-w` only for some (jest -w is --maxWorkers, npm -w a workspace).
const WATCHABLE = new Set(['webpack', 'tsc', 'jest', 'vitest', 'rollup', 'esbuild', 'babel', 'mocha', 'tsup', 'node', ...PACKAGE_RUNNERS]);
const SHORT_WATCH = new Set(['tsc', 'webpack', 'rollup', 'babel', 'mocha', 'vitest', 'tsup']);
// Full-screen programs that wait for a terminal even when output is not one (less and more just
// copy their input when it is not a terminal, so they finish).
const EDITORS = new Set(['vi', 'vim', 'nvim', 'nano', 'emacs', 'htop']);
// Read commands from stdin when given no script: they wait forever unless stdin is fed.
const REPLS = new Set(['python', 'python3', 'node', 'irb', 'psql', 'mysql', 'sqlite3', 'bash', 'sh', 'zsh', 'ssh']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash']);

/** Why `command` must not run in run_command, or null when it may. */
export function longRunningReason(command: string): string | null {
  const tokens = tokenize(command.slice(0, POLICY_MAX_CHARS));
  if (tokens.some((t) => isOp(t, '&'))) return 'puts a process in the background (&)';
  for (const cmd of simpleCommands(tokens)) {
    const reason = judge(cmd);
    if (reason) return reason;
  }
  return null;
}

function tokenize(command: string): ParseEntry[] {
  // shell-quote reads a newline as a blank; for the shell it ends a command (heredoc bodies are
  // data, so a line with one is left whole). Variables stay as written instead of expanding to ''.
  const text = command.includes('<<') ? command : command.replace(/\r?\n/g, ';');
  return parse(text, (name) => `$${name}`).filter((t) => !(typeof t === 'object' && 'comment' in t));
}

function isOp(t: ParseEntry, op: string): boolean {
  return typeof t === 'object' && 'op' in t && t.op === op;
}

/** Every simple command on the line, redirections removed. */
function simpleCommands(tokens: ParseEntry[]): SimpleCommand[] {
  const out: Array<{ argv: string[]; fedStdin: boolean }> = [{ argv: [], fedStdin: false }];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const current = out[out.length - 1];
    if (typeof t === 'string') current.argv.push(t);
    else if ('op' in t && t.op === 'glob') current.argv.push(t.pattern);
    else if ('op' in t && SEPARATORS.has(t.op)) out.push({ argv: [], fedStdin: t.op === '|' || t.op === '|&' });
    else if ('op' in t && REDIRECTS.has(t.op)) {
      if (t.op.startsWith('<')) current.fedStdin = true;
      i++;
    }
  }
  // `$(…)` and backquotes leave a bare "$" or "`" word in front of the inner command.
  return out
    .map((c) => ({ ...c, argv: c.argv.filter((w) => w !== '$' && w !== '`').map((w) => w.replace(/^`|`$/g, '')) }))
    .filter((c) => c.argv.length > 0);
}

/** The program that actually runs: leading VAR=value, wrappers and package-runner shims removed. */
function program(argv: Argv): { argv: Argv; background: string | null } {
  let i = 0;
  let background: string | null = null;
  for (;;) {
    const word = argv[i];
    if (word === undefined) break;
    if (/^[A-Za-z_]\w*=/.test(word)) i++;
    else if (BACKGROUND_WRAPPERS.has(base(word))) {
      background = base(word);
      i++;
    } else if (WRAPPERS.has(base(word))) {
      i++;
      while (argv[i]?.startsWith('-')) i++;
    } else if (base(word) === 'npx' || base(word) === 'bunx' || (base(word) === 'pnpm' && (argv[i + 1] === 'exec' || argv[i + 1] === 'dlx'))) {
      i += base(word) === 'pnpm' ? 2 : 1;
      while (argv[i]?.startsWith('-')) i++;
    } else break;
  }
  return { argv: argv.slice(i), background };
}

function base(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

function judge(cmd: SimpleCommand): string | null {
  const { argv, background } = program(cmd.argv);
  if (background) return `puts a process in the background (${background})`;
  if (argv.length === 0) return null;
  const name = base(argv[0]);
  const args = argv.slice(1);
  const shown = `\`${argv.join(' ')}\``;
  const positional = args.filter((a) => !a.startsWith('-'));
  // `sh -c "npm run dev"`: the quoted script is a command line of its own.
  if (SHELLS.has(name) && args[0] === '-c' && args[1] !== undefined) return longRunningReason(args[1]);
  // Asking a program for its help or version always finishes.
  if (args.some((a) => a === '--help' || a === '-h' || a === '--version') || (args.length === 1 && (args[0] === '-v' || args[0] === '-V'))) return null;
  if (WATCHABLE.has(name) && args.some((a) => a === '--watch' || a === '--watchAll' || a.startsWith('--watch=') || (a === '-w' && SHORT_WATCH.has(name)))) {
    return `runs in watch mode (${shown})`;
  }

  if (PACKAGE_RUNNERS.has(name)) {
    const script = positional[0] === 'run' || positional[0] === 'run-script' ? positional[1] : positional[0];
    return script && SERVER_SCRIPT.test(script) ? `starts a dev server or watcher (${shown})` : null;
  }
  if (FRAMEWORK_CLIS.has(name)) return positional[0] === 'dev' || positional[0] === 'start' ? `starts a dev server (${shown})` : null;
  // Bare `vite` (flags and their values aside) serves; only its build commands finish.
  if (name === 'vite') return positional.some((w) => w === 'build' || w === 'optimize') ? null : `starts a dev server (${shown})`;
  if (name === 'webpack' && positional[0] === 'serve') return `starts a dev server (${shown})`;
  if (name === 'ng' && positional[0] === 'serve') return `starts a dev server (${shown})`;
  if (DEV_SERVERS.has(name)) return `starts a dev server (${shown})`;
  if (name === 'node' && positional[0] && /^(server|app)\.(c|m)?js$/.test(base(positional[0]))) return `starts a Node server (${shown})`;
  if (PY_SERVERS.has(name)) return `starts a Python server (${shown})`;
  if (name === 'flask' && positional[0] === 'run') return `starts a Python server (${shown})`;
  if (/^python(3(\.\d+)?)?$/.test(name)) {
    const module = args[0] === '-m' ? args[1] : undefined;
    if (module === 'http.server' || (module && PY_SERVERS.has(module)) || (module === 'flask' && args[2] === 'run')) return `starts a Python server (${shown})`;
    const script = positional[0] ? base(positional[0]) : '';
    if (script === 'manage.py' && positional[1] === 'runserver') return `starts a Python server (${shown})`;
    if (/^(app|server|run)\.py$/.test(script)) return `starts a Python server (${shown})`;
  }
  if ((name === 'go' || name === 'cargo') && positional[0] === 'run') return `starts a long-running program (${shown})`;
  if (name === 'rails' && (positional[0] === 's' || positional[0] === 'server')) return `starts a server (${shown})`;
  if (name === 'php' && args.includes('-S')) return `starts a server (${shown})`;
  if (name === 'dotnet' && (positional[0] === 'run' || positional[0] === 'watch')) return `starts a long-running program (${shown})`;
  if (name === 'tail' && args.some((a) => /^-[a-zA-Z]*[fF]/.test(a) || a === '--follow' || a.startsWith('--follow='))) return `follows output forever (${shown})`;
  if (name === 'watch' && positional.length > 0) return `repeats forever (${shown})`;
  const follows = args.some((a) => a === '-f' || a === '--follow');
  if (follows && (name === 'journalctl' || ((name === 'docker' || name === 'kubectl') && positional.includes('logs')))) return `follows output forever (${shown})`;
  if (name === 'top' && !args.some((a) => /^-[a-zA-Z]*b/.test(a))) return `is interactive (${shown})`;
  if (EDITORS.has(name) && !args.some((a) => a === '--batch' || a === '-batch' || a === '-es' || a === '-Es')) return `is interactive (${shown})`;
  if (REPLS.has(name) && !cmd.fedStdin && positional.length <= (name === 'ssh' ? 1 : 0) && !args.some((a) => ['-c', '-e', '-p', '--eval', '--print'].includes(a))) {
    return `is interactive (${shown})`;
  }
  return null;
}
