// The workspace's file tree as the model sees it (seed 000, "File Tree Context for AI Agent"): the
// whole tree once per session, then only what changed ("+ added" / "- deleted"), the whole tree
// again when more than FILE_TREE_PATCH_MAX paths differ. Directories recursive listings skip
// (.git, node_modules: @h/workspace-fs) are left out by the workspace's own walk.
import type { Workspace } from '@h/contracts';

/** Files shown at most; a larger repository shows its shallowest files and says how many more exist. */
export const FILE_TREE_MAX_PATHS = 1_500;
/** Entries a listing walks at most, so a huge workspace cannot make a run's start slow. */
export const FILE_TREE_SCAN_MAX = 20_000;
/** More differing paths than this: the whole tree again instead of a patch (seed: "> 100 files differ"). */
export const FILE_TREE_PATCH_MAX = 100;

export interface TreeListing {
  /** The paths shown, sorted. */
  paths: string[];
  /** Files found in all (at least; `scanCapped` when the walk stopped at FILE_TREE_SCAN_MAX). */
  total: number;
  scanCapped: boolean;
  /**
   * Names of the regular files directly in the root, whatever the cap on `paths` (instruction files
   * are found here without a listing of their own); null when the walk stopped before it saw them all.
   */
  rootFiles?: string[] | null;
  /**
   * Every directory the walk saw (the root as ''), with the names of the files directly in it;
   * null when the walk stopped early. Instruction files are looked up here instead of listing each
   * directory a call reaches (a round trip to the sandbox per directory, on the step's path).
   */
  dirFiles?: ReadonlyMap<string, readonly string[]> | null;
}

/** Lists the workspace's files: the shallowest FILE_TREE_MAX_PATHS of them, so the top of a big tree is always shown. */
export async function listTree(workspace: Workspace): Promise<TreeListing> {
  const { entries, truncated } = await workspace.list('.', { recursive: true, maxEntries: FILE_TREE_SCAN_MAX });
  const files = entries.filter((e) => e.type !== 'directory').map((e) => e.path);
  const depth = (p: string) => p.split('/').length;
  const shown = files.length <= FILE_TREE_MAX_PATHS ? files : [...files].sort((a, b) => depth(a) - depth(b) || cmp(a, b)).slice(0, FILE_TREE_MAX_PATHS);
  const rootFiles = truncated ? null : entries.filter((e) => e.type === 'file' && !e.path.includes('/')).map((e) => e.path);
  let dirFiles: Map<string, string[]> | null = null;
  if (!truncated) {
    dirFiles = new Map([['', []]]);
    for (const e of entries) {
      if (e.type === 'directory') {
        if (!dirFiles.has(e.path)) dirFiles.set(e.path, []);
        continue;
      }
      if (e.type !== 'file') continue;
      const slash = e.path.lastIndexOf('/');
      const dir = slash === -1 ? '' : e.path.slice(0, slash);
      const names = dirFiles.get(dir);
      if (names) names.push(e.path.slice(slash + 1));
      else dirFiles.set(dir, [e.path.slice(slash + 1)]);
    }
  }
  return { paths: shown.sort(cmp), total: files.length, scanCapped: truncated, rootFiles, dirFiles };
}

export type TreeUpdate =
  | { mode: 'full'; paths: string[]; total: number; text: string }
  | { mode: 'patch'; added: string[]; deleted: string[]; text: string }
  | null;

/** What to tell the model, given what it was shown before (null: nothing yet, or it was compacted away). */
export function treeUpdate(previous: ReadonlySet<string> | null, listing: TreeListing): TreeUpdate {
  if (previous) {
    const now = new Set(listing.paths);
    const added = listing.paths.filter((p) => !previous.has(p));
    const deleted = [...previous].filter((p) => !now.has(p)).sort(cmp);
    if (added.length + deleted.length === 0) return null;
    if (added.length + deleted.length <= FILE_TREE_PATCH_MAX) return { mode: 'patch', added, deleted, text: renderPatch(added, deleted) };
  }
  return { mode: 'full', paths: listing.paths, total: listing.total, text: renderTree(listing) };
}

/** The tree nested by directory, directories first, two spaces per level. */
export function renderTree(listing: TreeListing): string {
  const root: Dir = new Map();
  for (const p of listing.paths) {
    const parts = p.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.get(`${part}/`);
      if (!(next instanceof Map)) dir.set(`${part}/`, (next = new Map()));
      dir = next;
    }
    dir.set(parts[parts.length - 1], null);
  }
  const out: string[] = [];
  const walk = (dir: Dir, indent: string) => {
    const names = [...dir.keys()].sort((a, b) => Number(!a.endsWith('/')) - Number(!b.endsWith('/')) || cmp(a, b));
    for (const name of names) {
      out.push(indent + name);
      const sub = dir.get(name);
      if (sub) walk(sub, `${indent}  `);
    }
  };
  walk(root, '');
  const more = listing.total - listing.paths.length;
  const count = `${listing.total}${listing.scanCapped ? '+' : ''} file${listing.total === 1 ? '' : 's'}`;
  const head = `[Workspace file tree] ${count}, paths relative to the workspace root; later messages list only changes.`;
  const tail = more > 0 || listing.scanCapped ? `\n… more files not shown (the shallowest ${listing.paths.length} are); list_files or search_files finds the rest.` : '';
  return listing.paths.length ? `${head}\n${out.join('\n')}${tail}` : `${head}\n(empty)`;
}

export function renderPatch(added: readonly string[], deleted: readonly string[]): string {
  return ['[Workspace file tree: changes since you last saw it]', ...added.map((p) => `+ ${p}`), ...deleted.map((p) => `- ${p}`)].join('\n');
}

type Dir = Map<string, Dir | null>;

// Code-point order, not the locale's: the same bytes on every host.
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
