// One glob dialect for every driver. Patterns without a '/' match the base name ("*.ts");
// patterns with one match the whole relative path ("src/**/*.ts").

/** Translates a shell-style glob ("*.ts", "src/**\/*.spec.ts", "{a,b}.json", "[!.]*") to an anchored RegExp. */
export function globToRegExp(glob: string, ignoreCase = false): RegExp {
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
  return new RegExp(`^${re}$`, ignoreCase ? 'i' : '');
}

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/** Matches a relative '/'-separated path against a glob (its base name when the glob has no '/'). */
export function matchesGlob(relPath: string, glob: string | RegExp, globHasSlash?: boolean): boolean {
  const re = typeof glob === 'string' ? globToRegExp(glob) : glob;
  const slash = globHasSlash ?? (typeof glob === 'string' ? glob.includes('/') : false);
  const subject = slash ? relPath : relPath.slice(relPath.lastIndexOf('/') + 1);
  return re.test(subject);
}

/**
 * The search_files rule (seed): entries whose name, or for patterns with '/' the relative path,
 * matches a glob or contains the text, case-insensitively.
 */
export function nameMatcher(pattern: string): (entry: { name: string; path: string }) => boolean {
  const byPath = pattern.includes('/');
  if (isGlob(pattern)) {
    const re = globToRegExp(pattern, true);
    return (e) => re.test(byPath ? e.path : e.name);
  }
  const needle = pattern.toLowerCase();
  return (e) => (byPath ? e.path : e.name).toLowerCase().includes(needle);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
