import { compileLinear, type LinearPattern } from '@h/patterns';

// Small glob support shared by the local workspace and the tools. Patterns without a '/' match
// the base name ("*.ts"); patterns with one match the whole relative path ("src/**/*.ts").
// Globs come from the model: "*a*a*a*b" becomes runs of [^/]* that backtrack polynomially on a JS
// RegExp, so they compile to RE2 (linear time) like every other untrusted pattern.

export function compileGlob(glob: string): LinearPattern {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // "**/" matches zero or more directories.
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) {
        out += '\\{';
        continue;
      }
      const options = glob.slice(i + 1, end).split(',').map(escapeRegExp);
      out += `(?:${options.join('|')})`;
      i = end;
    } else {
      out += escapeRegExp(c);
    }
  }
  return compileLinear(`^${out}$`, { ignoreCase: true });
}

export function isGlob(pattern: string): boolean {
  return /[*?{]/.test(pattern);
}

/** Matches a relative '/'-separated path against a glob (base name when the glob has no '/'). */
export function matchesGlob(relPath: string, glob: string | LinearPattern, globHasSlash?: boolean): boolean {
  const re = typeof glob === 'string' ? compileGlob(glob) : glob;
  const slash = globHasSlash ?? (typeof glob === 'string' ? glob.includes('/') : false);
  const subject = slash ? relPath : relPath.slice(relPath.lastIndexOf('/') + 1);
  return re.test(subject);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
