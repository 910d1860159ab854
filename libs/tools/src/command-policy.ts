// run_command is for commands that finish: builds, tests, linters, git. Servers, watchers and
// interactive programs never exit, so they would only burn the timeout; the seed blocks them and
// points the model at the real terminal tool instead.
// The command is the model's text and several of these patterns backtrack on long input
// (`[^;&|]*\s`, `.*-f`), so only its first POLICY_MAX_CHARS are checked: a longer command is almost
// always a heredoc writing a file, and what it starts is decided by its first line anyway.
import { MAX_MATCH_LINE_CHARS } from '@h/patterns';

const POLICY_MAX_CHARS = MAX_MATCH_LINE_CHARS * 4;

const LONG_RUNNING: Array<[RegExp, string]> = [
  [/\b(npm|pnpm|yarn|bun)\s+(run\s+)?(start|dev|serve|watch|preview)\b/, 'starts a dev server or watcher'],
  [/\b(next|nuxt|astro|remix)\s+(dev|start)\b/, 'starts a dev server'],
  [/(^|[\s;&|(])(npx\s+)?vite(\s+(dev|serve|preview)\b|\s+--|\s*$)/, 'starts a dev server'],
  [/(^|[\s;&|(])(npx\s+)?(webpack-dev-server|nodemon|serve|http-server|live-server)(\s|$)/, 'starts a dev server'],
  [/\b(webpack|tsc|jest|vitest|rollup|esbuild|babel|mocha)\b[^;&|]*\s(--watch\w*|-w)\b/, 'runs in watch mode'],
  [/\bnode\s+(\S*\/)?(server|app|index|main)\.(c|m)?js\b/, 'starts a Node server'],
  [/\bflask\s+run\b|\bmanage\.py\s+runserver\b|\b(uvicorn|gunicorn|hypercorn|daphne)\b/, 'starts a Python server'],
  [/\bpython3?\s+(\S*\/)?(app|server|main|run)\.py\b/, 'starts a Python server'],
  [/\b(go\s+run|cargo\s+run|rails\s+s(erver)?|php\s+-S|dotnet\s+(run|watch))\b/, 'starts a long-running program'],
  [/\btail\s+(-\S*f|--follow)|\bwatch\s+\S|\bjournalctl\s+.*-f\b|\bdocker\s+(compose\s+)?logs\s+.*-f\b/, 'follows output forever'],
  [/(^|[\s;&|(])(vim?|nano|emacs|less|more|top|htop|ssh|python3?|node|irb|psql|mysql)\s*$/, 'is interactive'],
  // A single '&' (not '&&', '2>&1' or '&>') sends a process to the background.
  [/(^|[^&>])&(?![&>\d])|\bnohup\b|\bdisown\b|\bsetsid\b/, 'puts a process in the background'],
];

/** Why `command` must not run in run_command, or null when it may. */
export function longRunningReason(command: string): string | null {
  const trimmed = command.slice(0, POLICY_MAX_CHARS).trim();
  for (const [re, why] of LONG_RUNNING) if (re.test(trimmed)) return why;
  return null;
}
