/** Directories no walk, search or watch enters (dependencies and VCS internals: huge, never the task). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Whether a relative '/'-separated path lies in (or is) a skipped directory at any depth. */
export function isInSkippedDirectory(relPath: string): boolean {
  return relPath.split('/').some((part) => SKIPPED_DIRECTORIES.has(part));
}
