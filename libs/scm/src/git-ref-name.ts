import { GIT_BRANCH_NAME_MAX_LENGTH } from '@h/contracts';
import { AppException } from '@h/http';

/**
 * Why `name` is not a branch name git would take (`git check-ref-format --branch` rules), or null.
 * Checked on the host so a name never reaches git's argv looking like an option (`-f`), a range
 * (`a..b`) or a revision expression (`main@{1}`, `HEAD~2`).
 */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0) return 'it is empty';
  if (name.length > GIT_BRANCH_NAME_MAX_LENGTH) return `it is longer than ${GIT_BRANCH_NAME_MAX_LENGTH} characters`;
  if (name.startsWith('-')) return 'it may not start with "-"';
  if (name === '@' || name === 'HEAD') return `"${name}" is reserved`;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f]/.test(name)) return 'it may not contain spaces or control characters';
  const bad = /[~^:?*[\\]/.exec(name);
  if (bad) return `it may not contain "${bad[0]}"`;
  if (name.includes('..')) return 'it may not contain ".."';
  if (name.includes('@{')) return 'it may not contain "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'it may not start or end with "/" or contain "//"';
  if (name.endsWith('.')) return 'it may not end with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'no part between "/" may start with "."';
    if (part.endsWith('.lock')) return 'no part between "/" may end with ".lock"';
  }
  return null;
}

/** A branch name as given, or 400 INVALID_REF_NAME saying which rule it breaks. */
export function validBranchName(name: string, what = 'branch'): string {
  const problem = branchNameProblem(name);
  if (problem) throw AppException.badRequest('INVALID_REF_NAME', `${what} ${preview(name)} is not a valid branch name: ${problem}.`);
  return name;
}

/** A start point: a branch, tag or remote branch name (same rules), or a commit hash. */
export function validStartPoint(ref: string): string {
  if (/^[0-9a-f]{4,64}$/i.test(ref) || ref === 'HEAD') return ref;
  return validBranchName(ref, 'from');
}

function preview(s: string): string {
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);
}
