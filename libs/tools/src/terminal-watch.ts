// What run_in_terminal watches for in a terminal's output (seed: run_in_terminal lifecycle, and
// "Auto-detect localhost URLs"): a server that says it started, an error, and loopback URLs. The
// output is the sandbox's: the fixed patterns run on RE2 (linear time) over capped lines.
import { capForMatch, compileLinear } from '@h/patterns';
import { distillOutput, stripAnsi } from './distill';

/** What the model gets of a terminal's output (seed: 8 lines / 1,200 characters). */
export const KEY_LINES_MAX = 8;
export const KEY_CHARS_MAX = 1200;

const SERVER_STARTED = compileLinear(
  [
    'listening (on|at)\\b', '\\bserver (is )?(running|started|listening)', '\\brunning (on|at) https?://', 'serving (http )?(on|at)\\b',
    '\\bready (in|on)\\b', 'started (server|on port|at)\\b', '\\blocal:\\s+https?://', 'development server', 'application startup complete',
    'compiled successfully', 'now listening', 'press ctrl\\+c to (quit|stop)',
  ].join('|'),
  { ignoreCase: true },
);

const ERROR_LINE = compileLinear(
  [
    'traceback \\(most recent call last\\)', '\\b(ModuleNotFoundError|ImportError|SyntaxError|NameError|TypeError|ReferenceError)\\b',
    'npm err!', '\\beaddrinuse\\b', 'address already in use', 'command not found', 'no such file or directory',
    'cannot find module', '^panic:', '^error(\\[e\\d+\\])?:', '\\bfatal:', 'unhandled (promise )?rejection', 'segmentation fault',
  ].join('|'),
  { ignoreCase: true },
);

function lines(text: string): string[] {
  return stripAnsi(text).replace(/\r\n?/g, '\n').split('\n').map(capForMatch);
}

/** A line saying a server is up. */
export function serverStartedLine(text: string): string | null {
  return lines(text).find((l) => SERVER_STARTED.test(l)) ?? null;
}

/** A line saying the program failed. */
export function errorLine(text: string): string | null {
  return lines(text).find((l) => ERROR_LINE.test(l)) ?? null;
}

// Loopback hosts with a port only (seed): localhost, 127.0.0.1, 0.0.0.0, [::1]. No nested
// quantifiers: each start position tries the literal scheme once, so this is linear per line.
const LOOPBACK_URL = /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{1,5})(?:\/[^\s'"<>`)\]]*)?/gi;

/** Loopback URLs with a port in `text`, in order of appearance, each once; trailing punctuation dropped. */
export function detectLoopbackUrls(text: string): string[] {
  const found: string[] = [];
  for (const line of lines(text)) {
    for (const m of line.matchAll(LOOPBACK_URL)) {
      const port = Number(m[1]);
      if (port < 1 || port > 65535) continue;
      const url = m[0].replace(/[.,;:!?]+$/, '');
      if (!found.includes(url)) found.push(url);
    }
  }
  return found;
}

/** The key lines of a terminal's output for the model: at most KEY_LINES_MAX lines and KEY_CHARS_MAX characters. */
export function keyLines(output: string): { text: string; totalLines: number; distilled: boolean } {
  const d = distillOutput(output, { maxLines: KEY_LINES_MAX, maxChars: KEY_CHARS_MAX, tailLines: 3, verbatimMaxLines: KEY_LINES_MAX });
  return d;
}

const HEAD_TIMEOUT_S = 3;
const HEAD_ATTEMPTS = 3;

/** How to run a command in the workspace's sandbox: its stdout, or null when it could not run. */
export interface SandboxProbe {
  exec(command: string, timeoutMs: number): Promise<string | null>;
  aborted?(): boolean;
}

/**
 * Whether a loopback URL serves a web page, asked inside the sandbox (`curl -sI` via exec): the
 * host never sends traffic to a container address. 0.0.0.0 is asked as 127.0.0.1. A server that
 * printed its URL a moment before it listens gets HEAD_ATTEMPTS tries.
 */
export async function servesHtml(url: string, probe: SandboxProbe): Promise<boolean> {
  // The URL pattern admits no quote or blank, so single quotes keep it one word.
  const target = url.replace('://0.0.0.0', '://127.0.0.1');
  for (let attempt = 0; attempt < HEAD_ATTEMPTS && !probe.aborted?.(); attempt++) {
    const out = await probe.exec(`curl -sI -m ${HEAD_TIMEOUT_S} -o /dev/null -w '%{http_code} %{content_type}' '${target}'`, (HEAD_TIMEOUT_S + 2) * 1000).catch(() => null);
    const [code, type = ''] = (out ?? '').trim().split(' ');
    if (code && code !== '000') return /^text\/html\b/i.test(type);
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}
