import { RE2JS, RE2JSException } from 're2js';
import { MAX_MATCH_LINE_CHARS, MAX_PATTERN_CHARS, MAX_PATTERN_PROGRAM_SIZE } from './pattern-limits';

// Patterns written by the model (read_command_output's filter, grep) or found in a sandbox run
// on RE2 (re2js: a pure-JS port, linear time in the input, no backtracking), never on JS RegExp,
// whose backtracking lets one pattern such as `(a+)+$` hold a shared event loop for hours.

/** What a tool shows the model next to a pattern parameter. */
export const PATTERN_SYNTAX_HINT =
  'RE2 syntax (as in ripgrep and Go): no backreferences or lookaround; each line is matched on its first ' +
  `${MAX_MATCH_LINE_CHARS} characters`;

export interface LinearPattern {
  readonly source: string;
  /** Whether the pattern matches somewhere in the first MAX_MATCH_LINE_CHARS characters of the line. */
  test(line: string): boolean;
  /** Index (UTF-16) of the first match in the capped line, or -1. */
  search(line: string): number;
}

/** A pattern the engine refuses; the message says why and what to write instead (shown to the model). */
export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

export interface UserPatternOptions {
  ignoreCase?: boolean;
  /** Match the text literally. */
  fixedString?: boolean;
}

/** Compiles a pattern from the model or a sandbox; throws PatternError with advice when it cannot run. */
export function compileUserPattern(pattern: string, options: UserPatternOptions = {}): LinearPattern {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new PatternError(`the pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are accepted`);
  }
  const source = options.fixedString ? RE2JS.quote(pattern) : toRe2Syntax(pattern);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    throw new PatternError(explainSyntaxError(e));
  }
  return wrap(pattern, assertSmall(re));
}

/**
 * Compiles a pattern H generated itself from untrusted text (a glob): same engine and line cap,
 * plain errors. Globs become `[^/]*` runs that would backtrack polynomially on JS RegExp.
 */
export function compileLinear(source: string, options: { ignoreCase?: boolean } = {}): LinearPattern {
  return wrap(source, assertSmall(RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0)));
}

// Matching cost is line length × program size: the line is capped, so is the program.
function assertSmall(re: RE2JS): RE2JS {
  const size = re.programSize();
  if (size > MAX_PATTERN_PROGRAM_SIZE) {
    throw new PatternError(
      `the pattern is too complex (${size} steps once compiled; at most ${MAX_PATTERN_PROGRAM_SIZE}): use smaller {n,m} counts or fewer alternatives`,
    );
  }
  return re;
}

/** The part of a line any pattern sees (MAX_MATCH_LINE_CHARS). */
export function capForMatch(line: string): string {
  return line.length > MAX_MATCH_LINE_CHARS ? line.slice(0, MAX_MATCH_LINE_CHARS) : line;
}

function wrap(source: string, re: RE2JS): LinearPattern {
  return {
    source,
    test: (line) => re.test(capForMatch(line)),
    search: (line) => {
      const capped = capForMatch(line);
      if (!re.test(capped)) return -1; // the DFA answers most lines; exec only where there is a match
      // re2js mirrors RegExpExecArray (index, input, groups); its typings say only any[].
      const match = re.exec(capped) as RegExpExecArray | null;
      return match?.index ?? -1;
    },
  };
}

const UNSUPPORTED_GROUPS: Array<[string, string]> = [
  ['(?=', 'lookahead (?=…)'],
  ['(?!', 'negative lookahead (?!…)'],
  ['(?<=', 'lookbehind (?<=…)'],
  ['(?<!', 'negative lookbehind (?<!…)'],
  ['(?>', 'an atomic group (?>…)'],
];

function unsupported(what: string, instead: string): PatternError {
  return new PatternError(`the pattern uses ${what}, which is not supported (${PATTERN_SYNTAX_HINT}); ${instead}`);
}

/**
 * Finds what RE2 cannot do, to say so plainly, and rewrites the JS-only escapes models often use
 * (\uXXXX, \u{…}) into RE2's \x{…}. Everything else is passed through for RE2 to judge.
 */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && next >= '1' && next <= '9') {
        throw unsupported(`a backreference (\\${next})`, 'match the text itself, e.g. (\\w+) (\\w+), and compare the groups yourself');
      }
      if (next === 'k' && pattern[i + 2] === '<') throw unsupported('a named backreference (\\k<…>)', 'match the text itself instead');
      const unicode = /^u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/.exec(pattern.slice(i + 1));
      if (unicode) {
        out += `\\x{${unicode[1] ?? unicode[2]}}`;
        i += unicode[0].length;
        continue;
      }
      out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      // A ']' right after '[' or '[^' is a literal in RE2 as in POSIX.
      const lead = /^\[\^?\]?/.exec(pattern.slice(i))?.[0] ?? '[';
      out += lead;
      i += lead.length - 1;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const found = UNSUPPORTED_GROUPS.find(([open]) => pattern.startsWith(open, i));
      if (found) throw unsupported(found[1], 'match the text itself, or filter twice (once for what must be there, once for what must not)');
    }
    out += c;
  }
  return out;
}

function explainSyntaxError(e: unknown): string {
  const message = e instanceof RE2JSException ? e.message.replace(/^error parsing regexp: /, '') : String(e);
  if (/nested repetition operator: `[*+?]\+`/.test(message)) {
    return `the pattern uses a possessive quantifier (${/`([^`]*)`/.exec(message)?.[1]}), which is not supported; a plain one (+, *) does the same here, since RE2 never backtracks`;
  }
  return `invalid pattern: ${message} (${PATTERN_SYNTAX_HINT})`;
}
