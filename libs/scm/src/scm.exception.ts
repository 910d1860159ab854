import { type HttpErrorCode } from '@h/contracts';
import { AppException, errorStatus } from '@h/http';

/** Source Control's own codes (statuses and meanings in the registry, libs/contracts error-codes.ts). */
export type ScmErrorCode = Extract<
  HttpErrorCode,
  'NOT_A_REPOSITORY' | 'GIT_CONFLICT' | 'GIT_REFUSED' | 'GIT_REF_NOT_FOUND' | 'GIT_TIMEOUT' | 'INVALID_REF_NAME' | 'PATH_OUTSIDE_WORKSPACE' | 'FILE_NOT_FOUND'
>;

export function scmError(code: ScmErrorCode, message: string): AppException {
  return new AppException(errorStatus(code), code, message);
}

/** What git printed, without its "fatal: "/"error: " prefixes and hint lines, bounded. */
export function gitWords(stderr: string, stdout = ''): string {
  const text = (stderr.trim() || stdout.trim())
    .split('\n')
    .filter((l) => !/^hint:/.test(l))
    .map((l) => l.replace(/^(fatal|error): /, '').trimEnd())
    .filter(Boolean)
    .join('\n');
  const words = text || 'git failed without saying why';
  return words.length > 2000 ? `${words.slice(0, 2000)}…` : words;
}

/**
 * A failed git command as the caller's answer: always a 4xx with git's own words and what to do.
 * `refNotFound` says whether "no such ref" wording means a missing branch (checkout, create from).
 */
export function fromGitFailure(stderr: string, stdout: string, opts: { refNotFound?: boolean } = {}): AppException {
  const words = gitWords(stderr, stdout);
  const all = `${stderr}\n${stdout}`;
  if (/not a git repository/i.test(all)) {
    return scmError('NOT_A_REPOSITORY', 'The workspace has no git repository at its root. Initialize one (Source Control → Initialize repository, or POST …/git/init).');
  }
  if (/index\.lock|Another git process seems to be running/i.test(all)) {
    return scmError('GIT_CONFLICT', `${words}\nAnother git command is running in this workspace (a terminal?). Wait for it to finish and try again; if none is running, delete .git/index.lock.`);
  }
  if (/would be overwritten by|Please commit your changes or stash them|Your local changes/i.test(all)) {
    return scmError('GIT_CONFLICT', `${words}\nCommit, stash or discard those changes first, then try again.`);
  }
  if (/you need to resolve your current index first|is unmerged|unmerged files|merging is not possible|You have not concluded your merge/i.test(all)) {
    return scmError('GIT_CONFLICT', `${words}\nResolve the conflicted files (edit, then stage them) or abort the merge in a terminal first.`);
  }
  if (/beyond a symbolic link|outside repository/i.test(all)) {
    return scmError('PATH_OUTSIDE_WORKSPACE', `${words}. Paths stay inside the workspace (symbolic links too).`);
  }
  if (/is not a valid branch name/i.test(all)) return scmError('INVALID_REF_NAME', words);
  if (/pathspec .* did not match any file/i.test(all) && !opts.refNotFound) {
    return scmError('FILE_NOT_FOUND', `${words}. Refresh the changes list: the file may have been committed, removed or discarded meanwhile.`);
  }
  if (opts.refNotFound && /invalid reference|not a valid object name|unknown revision|did not match any file|not a commit|no such branch/i.test(all)) {
    return scmError('GIT_REF_NOT_FOUND', `${words}. Pick a branch from the list (GET …/git/branches).`);
  }
  if (/nothing to commit|no changes added to commit|nothing added to commit/i.test(all)) {
    return scmError('GIT_REFUSED', 'Nothing to commit: stage the changes to include first.');
  }
  return scmError('GIT_REFUSED', words);
}
