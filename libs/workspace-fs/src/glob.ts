// One glob dialect for every driver. Patterns without a '/' match the base name ("*.ts");
// patterns with one match the whole relative path ("src/**/*.ts"). Globs come from the model:
// "*a*a*a*b" as a JS RegExp backtracks polynomially on every path of a walk, so they compile to
// RE2 (linear time, @h/patterns) like every other untrusted pattern; one too large to compile is
// refused with InvalidGlobError (callers map it to their own error).
import { compileLinear, type LinearPattern } from '@h/patterns';

export class InvalidGlobError extends Error {
  constructor(why: string) {
    super(`invalid glob: ${why}`);
    this.name = 'InvalidGlobError';
  }
}

/** Compiles a shell-style glob ("*.ts", "src/**\/*.spec.ts", "{a,b}.json", "[!.]*") to an anchored linear-time pattern. */
export function compileGlob(glob: string, ignoreCase = false): LinearPattern {
  let re = '';
  let inBraces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // "**/" matches zero or more directories; a bare "**" matches anything.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      // An unclosed "{" matches itself, as a shell leaves it.
      if (glob.indexOf('}', i + 1) < 0) re += '\\{';
      else {
        inBraces++;
        re += '(?:';
      }
    } else if (c === '}' && inBraces) {
      inBraces--;
      re += ')';
    } else if (c === ',' && inBraces) re += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += escapeRegExp(c);
  }
  try {
    return compileLinear(`^${re}$`, { ignoreCase });
  } catch (e) {
    throw new InvalidGlobError(e instanceof Error ? e.message : String(e));
  }
}

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/** Matches a relative '/'-separated path against a glob (its base name when the glob has no '/'). */
export function matchesGlob(relPath: string, glob: string | LinearPattern, globHasSlash?: boolean): boolean {
  const re = typeof glob === 'string' ? compileGlob(glob) : glob;
  const slash = globHasSlash ?? (typeof glob === 'string' ? glob.includes('/') : false);
  const subject = slash ? relPath : relPath.slice(relPath.lastIndexOf('/') + 1);
  return re.test(subject);
}

/**
 * The search_files rule (seed): entries whose name, or for patterns with '/' the relative path,
 * matches a glob or contains the text, case-insensitively. Throws InvalidGlobError.
 */
export function nameMatcher(pattern: string): (entry: { name: string; path: string }) => boolean {
  const byPath = pattern.includes('/');
  if (isGlob(pattern)) {
    const re = compileGlob(pattern, true);
    return (e) => re.test(byPath ? e.path : e.name);
  }
  const needle = pattern.toLowerCase();
  return (e) => (byPath ? e.path : e.name).toLowerCase().includes(needle);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
