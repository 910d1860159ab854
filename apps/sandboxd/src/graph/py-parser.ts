// Python facts by the seed's line rules (no interpreter in the loop): exports are module-level
// (column 0) `def foo()`, `class Foo:`, and `name = value` / `name: Type = value` bindings (names
// starting with `_` are private by Python's convention and left out); imports are `import a.b as c`
// and `from x import (y, z as w)` anywhere in the file; a local name is unused when no identifier
// outside import statements, strings and comments refers to it (or `__all__` lists it).
import type { FileFacts, ImportedName, ParsedExport, ParsedImport } from './graph-model';

export const PY_EXTENSIONS = ['.py', '.pyi', '.pyx'];

/**
 * The file's logical lines with strings and comments blanked (strings become ""), bracketed and
 * backslash continuations joined, each with whether it started at column 0.
 */
function logicalLines(text: string): { code: string; top: boolean }[] {
  const out: { code: string; top: boolean }[] = [];
  let cur = '';
  let depth = 0;
  let top = true;
  let atLineStart = true;
  let i = 0;
  const n = text.length;
  const flush = () => {
    if (cur.trim()) out.push({ code: cur, top });
    cur = '';
    atLineStart = true;
  };
  while (i < n) {
    const c = text[i];
    if (atLineStart) {
      top = c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r';
      if (c === '\n' || c === '\r') {
        i++;
        continue;
      }
      atLineStart = false;
    }
    if (c === '#') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      i += quote.length;
      while (i < n && !text.startsWith(quote, i)) {
        if (text[i] === '\\') i++;
        else if (!triple && text[i] === '\n') break;
        i++;
      }
      i += quote.length;
      cur += '""';
      continue;
    }
    if (c === '\\' && text[i + 1] === '\n') {
      i += 2;
      cur += ' ';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    if (c === '\n') {
      if (depth > 0) cur += ' ';
      else flush();
      i++;
      continue;
    }
    cur += c;
    i++;
  }
  flush();
  return out;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;
const IMPORT_RE = /^\s*import\s+(.+)$/;
const FROM_RE = /^\s*from\s+(\.*[\w.]*)\s+import\s+(.+)$/;
const DEF_RE = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/;
const CLASS_RE = /^class\s+([A-Za-z_]\w*)/;
const BIND_RE = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/;

interface PyName {
  name: string;
  as: string | null;
}

function splitNames(list: string): PyName[] {
  return list
    .replace(/[()]/g, ' ')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s): PyName | null => {
      const m = /^([\w.*]+)(?:\s+as\s+(\w+))?$/.exec(s);
      return m ? { name: m[1], as: m[2] ?? null } : null;
    })
    .filter((x): x is PyName => !!x);
}

export function parsePython(text: string): FileFacts {
  const exports: ParsedExport[] = [];
  const imports: ParsedImport[] = [];
  const used = new Set<string>();
  const add = (name: string, kind: string) => {
    if (!name.startsWith('_') && !exports.some((e) => e.name === name)) exports.push({ name, kind });
  };
  for (const { code, top } of logicalLines(text)) {
    // `if x: import y` and `try: import y` put the statement after a colon on the same line.
    const stmt = code.replace(/^\s*(?:try|else|finally|if [^:]*|elif [^:]*|except[^:]*)\s*:\s*(?=(?:from|import)\s)/, '');
    const from = FROM_RE.exec(stmt);
    const plain = from ? null : IMPORT_RE.exec(stmt);
    if (from) {
      const names: ImportedName[] = splitNames(from[2].replace(/;.*$/, '')).map((n) => ({ imported: n.name, local: n.as ?? n.name }));
      imports.push({ module: from[1], names, unused: [] });
      continue;
    }
    if (plain) {
      // `import a.b` binds `a`; `import a.b as c` binds `c`.
      for (const n of splitNames(plain[1].replace(/;.*$/, ''))) {
        imports.push({ module: n.name, names: [{ imported: n.name, local: n.as ?? n.name.split('.')[0] }], unused: [] });
      }
      continue;
    }
    if (top) {
      const def = DEF_RE.exec(code);
      const cls = def ? null : CLASS_RE.exec(code);
      const bind = def || cls ? null : BIND_RE.exec(code);
      if (def) add(def[1], 'function');
      else if (cls) add(cls[1], 'class');
      else if (bind) add(bind[1], 'variable');
    }
    for (const m of code.matchAll(IDENT)) used.add(m[0]);
  }
  // A name listed in __all__ is re-exported: used, though only inside a string.
  for (const m of text.matchAll(/^__all__\s*\+?=\s*[[(]([^\])]*)[\])]/gm)) for (const q of m[1].matchAll(/['"](\w+)['"]/g)) used.add(q[1]);
  for (const imp of imports) imp.unused = imp.names.filter((n) => n.local !== '*' && !used.has(n.local)).map((n) => n.local);
  return { language: 'py', exports, imports };
}
