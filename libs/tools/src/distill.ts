// Tool-result distillation (seed: Token Optimization §4): bulky command output is replaced by its
// key lines — errors, warnings, failures, assertion details, URLs, success and summary lines —
// while the full text stays in the OutputStore for read_command_output.
// The output is the sandbox's: these fixed JS patterns backtrack polynomially on long lines
// (`\S+:\d+:\d+` on a megabyte without a colon), so each line is capped (capForMatch) first.
import { capForMatch } from '@h/patterns';

// An OSC sequence ends at BEL or ST (ESC \); stopping at any ESC keeps a run of unterminated ones linear.
// eslint-disable-next-line no-control-regex -- ANSI escapes are control characters by definition
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

// Three tiers, filled in order, so that hundreds of "PASS" lines never crowd out one failure.
const TIERS: RegExp[] = [
  new RegExp(
    [
      '\\berror\\b', '\\berr!', '\\bfail', '\\bexception\\b', 'traceback', '\\bpanic', '\\bassert',
      '\\bexpected\\b', '\\breceived\\b', '\\bactual\\b', '\\bnot ok\\b', '\\bcannot\\b', '\\bundefined\\b',
      '\\bnot found\\b', '\\bdenied\\b', '✕', '✗', '×', '●', '^\\s*File ".+", line \\d+', '^\\s*-->',
    ].join('|'),
    'i',
  ),
  new RegExp(
    [
      '\\bwarn', '^\\s*at \\S+.*:\\d+:\\d+', '\\S+:\\d+:\\d+',
      '\\b\\d+ (passed|passing|failed|failing|errors?|warnings?)\\b', '^\\s*(tests?|suites?|test suites)\\s*:',
    ].join('|'),
    'i',
  ),
  /\bpass(ed)?\b|\bsuccess|\bdone\b|\bcompiled\b|https?:\/\//i,
];

export interface DistillOptions {
  /** Outputs up to this many characters are returned verbatim. */
  maxChars?: number;
  maxLines?: number;
  /** Trailing lines always kept (test runners print their summary last). */
  tailLines?: number;
  /** Outputs of up to this many lines (and maxChars) are returned verbatim; default twice maxLines. */
  verbatimMaxLines?: number;
}

export interface Distilled {
  text: string;
  distilled: boolean;
  totalLines: number;
}

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export function distillOutput(raw: string, options: DistillOptions = {}): Distilled {
  const maxChars = options.maxChars ?? 2000;
  const maxLines = options.maxLines ?? 24;
  const tail = options.tailLines ?? 4;
  const text = trimTrailingNewlines(stripAnsi(raw).replace(/\r\n?/g, '\n'));
  const lines = text.split('\n');
  if (text.length <= maxChars && lines.length <= (options.verbatimMaxLines ?? maxLines * 2)) {
    return { text, distilled: false, totalLines: lines.length };
  }
  const keep = new Set<number>();
  let chars = 0;
  const clip = (i: number) => (lines[i].length > 300 ? `${lines[i].slice(0, 300)}…` : lines[i]);
  const take = (i: number) => {
    if (keep.has(i) || keep.size >= maxLines || chars + clip(i).length + 1 > maxChars) return;
    keep.add(i);
    chars += clip(i).length + 1;
  };
  const nonEmpty = lines.map((l, i) => (l.trim() ? i : -1)).filter((i) => i >= 0);
  for (const i of nonEmpty.slice(-tail)) take(i);
  for (const tier of TIERS) for (const i of nonEmpty) if (tier.test(capForMatch(lines[i]))) take(i);
  const out: string[] = [];
  let previous = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (previous >= 0 && i > previous + 1) out.push('…');
    out.push(clip(i));
    previous = i;
  }
  return { text: out.join('\n'), distilled: true, totalLines: lines.length };
}

// Not /\n+$/: V8 retries that from every newline of a run, quadratic in the run's length.
function trimTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}
