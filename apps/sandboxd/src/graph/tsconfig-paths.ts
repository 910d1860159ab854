// The root tsconfig's `paths` (following `extends` to the file that sets them), so a monorepo's
// aliases (`@app/*` → `libs/*/src`) resolve to workspace files instead of counting as packages.
// Only the root's tsconfig.json is read: nested projects with their own aliases are not followed.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as ts from 'typescript';

export interface PathAlias {
  /** The part before `*` (the whole pattern when it has none). */
  prefix: string;
  /** The part after `*`; null: the pattern has no `*` and matches exactly. */
  suffix: string | null;
  /** Workspace-relative targets with `*` where the match goes. */
  targets: string[];
}

const MAX_EXTENDS = 5;

export async function readPathAliases(root: string): Promise<PathAlias[]> {
  let file = path.join(root, 'tsconfig.json');
  for (let depth = 0; depth < MAX_EXTENDS; depth++) {
    let config: { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
    try {
      config = ts.parseConfigFileTextToJson(file, await readFile(file, 'utf8')).config ?? {};
    } catch {
      return [];
    }
    const dir = path.dirname(file);
    const paths = config.compilerOptions?.paths;
    if (paths && typeof paths === 'object') {
      const base = typeof config.compilerOptions?.baseUrl === 'string' ? path.resolve(dir, config.compilerOptions.baseUrl) : dir;
      return Object.entries(paths as Record<string, unknown>).flatMap(([pattern, targets]) => {
        if (!Array.isArray(targets)) return [];
        const star = pattern.indexOf('*');
        const rel = targets.filter((t): t is string => typeof t === 'string').map((t) => path.relative(root, path.resolve(base, t)).split(path.sep).join('/'));
        const inside = rel.filter((t) => !t.startsWith('..'));
        return inside.length ? [{ prefix: star < 0 ? pattern : pattern.slice(0, star), suffix: star < 0 ? null : pattern.slice(star + 1), targets: inside }] : [];
      });
    }
    // Only relative `extends` (a package's preset has no paths into this workspace).
    if (typeof config.extends !== 'string' || !config.extends.startsWith('.')) return [];
    file = path.resolve(dir, config.extends.endsWith('.json') ? config.extends : `${config.extends}.json`);
  }
  return [];
}

/** Where an aliased specifier points (without extension), longest prefix first; [] when no alias matches. */
export function aliasTargets(aliases: readonly PathAlias[], spec: string): string[] {
  const out: string[] = [];
  const matching = aliases.filter((a) => (a.suffix === null ? spec === a.prefix : spec.startsWith(a.prefix) && spec.endsWith(a.suffix) && spec.length >= a.prefix.length + a.suffix.length));
  matching.sort((a, b) => b.prefix.length - a.prefix.length);
  for (const a of matching) {
    const star = a.suffix === null ? '' : spec.slice(a.prefix.length, spec.length - a.suffix.length);
    for (const t of a.targets) out.push(t.replace('*', star));
  }
  return out;
}
