// Where an import points: a file of the workspace (local), the language's standard library
// (Node.js built-ins, CPython's modules) or a package (third-party). Resolution is by the file set
// alone, without reading tsconfig or sys.path: relative specifiers the way Node and TypeScript's
// bundler resolution look for them (and the root tsconfig's `paths` aliases), Python dotted modules from the workspace root, the importing
// file's directory and src/.
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import type { ImportClassification } from './graph-model';
import { PY_STDLIB } from './py-stdlib';
import { aliasTargets, type PathAlias } from './tsconfig-paths';

const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules);
const TS_TRY = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** An ESM-style `./x.js` written in TypeScript names `./x.ts`. */
const JS_TO_TS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

export interface Resolution {
  classification: ImportClassification;
  /** Workspace-relative path of the file imported, when it is one of the workspace's. */
  target: string | null;
}

export class ModuleResolver {
  constructor(
    private readonly files: ReadonlySet<string>,
    private readonly dirs: ReadonlySet<string>,
    private readonly aliases: readonly PathAlias[] = [],
  ) {}

  resolve(fromRel: string, module: string, language: 'ts' | 'py'): Resolution {
    return language === 'ts' ? this.resolveTs(fromRel, module) : this.resolvePy(fromRel, module);
  }

  private resolveTs(fromRel: string, spec: string): Resolution {
    if (spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../')) {
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec)).replace(/\/$/, '');
      return { classification: 'local', target: this.firstFile(tsCandidates(base)) };
    }
    for (const base of aliasTargets(this.aliases, spec)) {
      const target = this.firstFile(tsCandidates(path.posix.normalize(base).replace(/\/$/, '')));
      if (target) return { classification: 'local', target };
    }
    const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
    if (NODE_BUILTINS.has(bare) || NODE_BUILTINS.has(bare.split('/')[0])) return { classification: 'stdlib', target: null };
    return { classification: 'third-party', target: null };
  }

  private resolvePy(fromRel: string, module: string): Resolution {
    const dots = /^\.*/.exec(module)![0].length;
    const rest = module.slice(dots).split('.').filter(Boolean);
    if (dots > 0) {
      let dir = path.posix.dirname(fromRel);
      for (let i = 1; i < dots; i++) dir = path.posix.dirname(dir);
      const base = [dir === '.' ? '' : dir, ...rest].filter(Boolean).join('/');
      return { classification: 'local', target: this.pyModuleFile(base) };
    }
    const fromDir = path.posix.dirname(fromRel);
    for (const root of ['', fromDir === '.' ? '' : fromDir, 'src']) {
      const base = [root, ...rest].filter(Boolean).join('/');
      const target = this.pyModuleFile(base);
      if (target) return { classification: 'local', target };
    }
    const top = rest[0] ?? '';
    if (PY_STDLIB.has(top)) return { classification: 'stdlib', target: null };
    // A package directory without __init__.py (a namespace package) is still the workspace's own.
    if (this.dirs.has(top) || (fromDir !== '.' && this.dirs.has(`${fromDir}/${top}`))) return { classification: 'local', target: null };
    return { classification: 'third-party', target: null };
  }

  /** `a/b` as a module file: a/b.py (or .pyi) or the package a/b/__init__.py. */
  pyModuleFile(base: string): string | null {
    if (!base) return this.firstFile(['__init__.py']);
    return this.firstFile([`${base}.py`, `${base}.pyi`, `${base}/__init__.py`, `${base}/__init__.pyi`]);
  }

  private firstFile(candidates: string[]): string | null {
    for (const c of candidates) if (this.files.has(c)) return c;
    return null;
  }
}

function tsCandidates(base: string): string[] {
  const out = [base];
  const ext = path.posix.extname(base);
  for (const swap of JS_TO_TS[ext] ?? []) out.push(base.slice(0, -ext.length) + swap);
  for (const e of TS_TRY) out.push(base + e);
  for (const e of TS_TRY) out.push(`${base}/index${e}`);
  return out;
}
