import { compileLinear, type LinearPattern } from '@h/patterns';

/**
 * Translates a shell-style glob ("*.ts", "src/**\/*.spec.ts", "{a,b}.json") to an anchored pattern.
 * It runs on RE2 (linear time): "*a*a*a*b" as a JS RegExp backtracks polynomially on every path of
 * a walk, which would stall the daemon's other calls.
 */
export function globToRegExp(glob: string, ignoreCase = false): LinearPattern {
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
      inBraces++;
      re += '(?:';
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
    } else re += c.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  return compileLinear(`^${re}$`, { ignoreCase });
}

export function hasGlobChars(s: string): boolean {
  return /[*?[{]/.test(s);
}
