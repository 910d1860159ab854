import { realpathSync } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { WORKSPACE_ROOT } from '@h/sandbox-protocol';
import { fail } from './errors';

export interface ResolvedPath {
  /** Real absolute path on this machine. */
  abs: string;
  /** Relative to the root, '/'-separated, '' for the root itself. */
  rel: string;
}

/**
 * Confines every path to the workspace root. Accepts "src/a.ts", "/workspace/src/a.ts" and, for the
 * local driver, the real absolute root. Symlinks are followed and the result must still lie inside.
 *
 * Inside a container this is about meaning, not security: the daemon runs as the same unprivileged
 * user as `exec`, on a read-only root filesystem, so a race that slipped outside /workspace could
 * reach nothing an `exec` could not.
 */
export class PathResolver {
  readonly root: string;

  constructor(root: string) {
    this.root = realpathSync(root);
  }

  /** Lexical resolution only (no filesystem access). */
  lexical(p: string): ResolvedPath {
    if (typeof p !== 'string') fail('INVALID_ARGUMENT', 'path must be a string');
    if (p.includes('\0')) fail('INVALID_ARGUMENT', 'path contains a NUL byte');
    let rel: string;
    if (path.isAbsolute(p)) {
      const norm = path.posix.normalize(p);
      const under = (base: string) => norm === base || norm.startsWith(base + '/');
      if (under(WORKSPACE_ROOT)) rel = norm.slice(WORKSPACE_ROOT.length + 1);
      else if (under(this.root)) rel = norm.slice(this.root.length + 1);
      else fail('PATH_OUTSIDE_WORKSPACE', `${p} is outside the workspace`);
    } else {
      rel = p;
    }
    const abs = path.resolve(this.root, rel);
    if (abs !== this.root && !abs.startsWith(this.root + path.sep)) {
      fail('PATH_OUTSIDE_WORKSPACE', `${p} is outside the workspace`);
    }
    return { abs, rel: path.relative(this.root, abs).split(path.sep).join('/') };
  }

  /**
   * Resolves and follows symlinks: the deepest existing ancestor's real path must be inside the
   * root. With `noFollowLast`, the last component itself is not followed (delete/rename a link).
   */
  async resolve(p: string, opts: { noFollowLast?: boolean } = {}): Promise<ResolvedPath> {
    const lex = this.lexical(p);
    if (lex.abs === this.root) return lex;
    const parent = path.dirname(lex.abs);
    const realParent = await this.realExisting(parent, p);
    let abs = path.join(realParent, path.basename(lex.abs));
    if (!opts.noFollowLast) {
      try {
        const st = await lstat(abs);
        if (st.isSymbolicLink()) abs = await this.realExisting(abs, p);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    this.assertInside(abs, p);
    return { abs, rel: path.relative(this.root, abs).split(path.sep).join('/') };
  }

  toRel(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join('/');
  }

  private async realExisting(abs: string, shown: string, depth = 0): Promise<string> {
    if (depth > 40) fail('IO_ERROR', `${shown}: too many levels of symbolic links`);
    // Walk up to the deepest ancestor that exists, take its real path, re-append the rest.
    let cur = abs;
    const rest: string[] = [];
    for (;;) {
      try {
        const real = await realpath(cur);
        const out = rest.length ? path.join(real, ...rest.reverse()) : real;
        this.assertInside(out, shown);
        return out;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
        // A dangling symlink: its target is what a write would create; check it too.
        try {
          const st = await lstat(cur);
          if (st.isSymbolicLink()) {
            const target = path.resolve(path.dirname(cur), await readlink(cur));
            const full = rest.length ? path.join(target, ...[...rest].reverse()) : target;
            return this.realExisting(full, shown, depth + 1);
          }
        } catch (e2) {
          if ((e2 as NodeJS.ErrnoException).code !== 'ENOENT' && (e2 as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e2;
        }
        const up = path.dirname(cur);
        if (up === cur) fail('PATH_OUTSIDE_WORKSPACE', `${shown} is outside the workspace`);
        rest.push(path.basename(cur));
        cur = up;
      }
    }
  }

  private assertInside(abs: string, shown: string): void {
    if (abs !== this.root && !abs.startsWith(this.root + path.sep)) {
      fail('PATH_OUTSIDE_WORKSPACE', `${shown} resolves outside the workspace`);
    }
  }
}
