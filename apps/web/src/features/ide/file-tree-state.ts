// The explorer's tree as data: listings per loaded directory, which folders are expanded, and how
// a batch of live file changes maps onto them. Pure functions, unit-tested.
import type { FileChange, FileEntry } from '@h/contracts';

export interface DirListing {
  entries: FileEntry[] | null;
  loading: boolean;
  error: string | null;
  truncated: boolean;
}

/** Directory path ('' for the root) -> its listing, for every directory read so far. */
export type Listings = Record<string, DirListing>;

export interface TreeRow {
  entry: FileEntry;
  depth: number;
  expanded: boolean;
}

export function parentDir(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function isSameOrBelow(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(dir + '/');
}

/** Folders first, then names in a stable, case-insensitive order (what people expect of a tree). */
export function sortEntries(entries: FileEntry[]): FileEntry[] {
  return [...entries].sort((a, b) => {
    const ad = a.type === 'directory' ? 0 : 1;
    const bd = b.type === 'directory' ? 0 : 1;
    if (ad !== bd) return ad - bd;
    const byName = a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
    return byName || a.name.localeCompare(b.name);
  });
}

/** The rows the tree shows: each expanded, loaded directory's entries below it, depth first. */
export function visibleRows(listings: Listings, expanded: ReadonlySet<string>, dir = '', depth = 0): TreeRow[] {
  const rows: TreeRow[] = [];
  for (const entry of listings[dir]?.entries ?? []) {
    const open = entry.type === 'directory' && expanded.has(entry.path);
    rows.push({ entry, depth, expanded: open });
    if (open) rows.push(...visibleRows(listings, expanded, entry.path, depth + 1));
  }
  return rows;
}

/**
 * Which loaded directories to list again after these changes: the parent of every path that
 * appeared, went or moved. `resync` (too many changes, or some may be lost) reloads them all.
 */
export function dirsToReload(loaded: Iterable<string>, changes: FileChange[], resync = false): string[] {
  const have = new Set(loaded);
  if (resync) return [...have];
  const out = new Set<string>();
  for (const c of changes) {
    // A content change alters only the size shown; the tree does not show sizes, so skip it.
    if (c.kind === 'changed') continue;
    for (const p of [c.path, c.from]) {
      if (p === undefined) continue;
      const dir = parentDir(p);
      if (have.has(dir)) out.add(dir);
    }
  }
  return [...out];
}

/** Forget listings of a directory that is gone (and of everything below it). */
export function pruneListings(listings: Listings, gone: string[]): Listings {
  if (!gone.length) return listings;
  const next: Listings = {};
  for (const [dir, listing] of Object.entries(listings)) {
    if (dir !== '' && gone.some((g) => isSameOrBelow(dir, g))) continue;
    next[dir] = listing;
  }
  return next;
}

/** Expanded folders after a move: those at or below `from` follow it to `to`. */
export function moveExpanded(expanded: ReadonlySet<string>, from: string, to: string): Set<string> {
  const next = new Set<string>();
  for (const dir of expanded) next.add(isSameOrBelow(dir, from) ? to + dir.slice(from.length) : dir);
  return next;
}

/** Expanded folders without those deleted (at or below any of `gone`). */
export function dropExpanded(expanded: ReadonlySet<string>, gone: string[]): Set<string> {
  return new Set([...expanded].filter((dir) => !gone.some((g) => isSameOrBelow(dir, g))));
}

/** A move by drag and drop: where `source` lands inside folder `targetDir`, or null if it cannot. */
export function dropTarget(source: string, targetDir: string): string | null {
  const name = source.slice(source.lastIndexOf('/') + 1);
  const to = targetDir ? `${targetDir}/${name}` : name;
  if (to === source || isSameOrBelow(targetDir, source)) return null;
  return to;
}

/**
 * A name typed into the explorer. A new file or folder may be a relative path ("src/util.ts", as
 * in VS Code: the folders on the way are created); a rename is one segment (moving is a drag).
 */
export function nameProblem(name: string, options: { nested?: boolean } = {}): string | null {
  const typed = name.trim();
  if (!typed) return 'Type a name.';
  if (typed.includes('\\')) return 'A name cannot contain "\\".';
  const segments = typed.split('/');
  if (segments.length > 1 && !options.nested) return 'A name cannot contain "/"; drag the entry to move it to another folder.';
  for (const segment of segments) {
    if (!segment) return 'Type a path relative to this folder, without empty parts or a "/" at either end.';
    if (segment === '.' || segment === '..') return 'Choose another name.';
    if (new TextEncoder().encode(segment).length > 255) return 'Names are at most 255 bytes.';
  }
  return null;
}
