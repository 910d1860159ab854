// Source control (REST under /api/v1/workspaces/:id/git): git run inside the workspace's sandbox,
// typed once for the api and the IDE's Source Control panel. Fetch, pull and push are not here:
// they run host-side with the stored credential (libs/git-remote).
// Zod-free on purpose: the browser may import this file's values.

/** How a file differs, in one column of `git status` (index or working tree). */
export const GIT_CHANGE_KINDS = ['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed', 'untracked', 'conflicted'] as const;
export type GitChangeKind = (typeof GIT_CHANGE_KINDS)[number];

export interface GitFileChange {
  /** Relative to the workspace root (the repository's root), '/'-separated. */
  path: string;
  kind: GitChangeKind;
  /** Renames and copies: where it came from. */
  originalPath?: string;
}

/** `GET …/git/status` of a workspace with no repository at its root. */
export interface GitStatusUninitialized {
  initialized: false;
}

export interface GitStatusInitialized {
  initialized: true;
  /** The checked-out branch; null when HEAD is detached. */
  branch: string | null;
  /** HEAD's commit; null before the first commit. */
  head: string | null;
  /** The branch's upstream (`origin/main`), null when none is set. */
  upstream: string | null;
  /** Commits on the branch and not on its upstream, and the other way round (0 without upstream). */
  ahead: number;
  behind: number;
  /** In the index, against HEAD. */
  staged: GitFileChange[];
  /** In the working tree, against the index. */
  unstaged: GitFileChange[];
  untracked: GitFileChange[];
  /** Unmerged paths (a merge, rebase or stash pop stopped on them). */
  conflicted: GitFileChange[];
  /** More files changed than the answer carries (GIT_STATUS_MAX_FILES, or SCM_OUTPUT_MAX_BYTES of git's output). */
  truncated: boolean;
}

export type GitStatus = GitStatusUninitialized | GitStatusInitialized;

/** One side of a diff as text for the diff editor, or why it is not shown. */
export interface GitDiffSide {
  /** The text; '' when the file does not exist on this side, or is binary or too large. */
  text: string;
  exists: boolean;
  binary: boolean;
  /** Larger than SCM_DIFF_MAX_BYTES: left out. */
  tooLarge: boolean;
}

export interface GitDiff {
  path: string;
  /** true: HEAD → index; false: index → working tree (untracked: nothing → working tree). */
  staged: boolean;
  original: GitDiffSide;
  modified: GitDiffSide;
  /** `git diff` of the one file (unified, 3 lines of context); cut at SCM_DIFF_MAX_BYTES. */
  patch: string;
  patchTruncated: boolean;
}

export interface GitPathsRequest {
  /** Workspace-relative paths (at most GIT_PATHS_MAX); or leave out and send all: true. */
  paths?: string[];
  /** Stage / unstage everything (not for discard). */
  all?: boolean;
}

export interface GitCommitRequest {
  message: string;
  /** Replace the last commit (its author stays; the committer is you). */
  amend?: boolean;
}

export interface GitCommitResult {
  hash: string;
  subject: string;
  branch: string | null;
}

export interface GitBranch {
  /** `main`, or for a remote-tracking branch `origin/main`. */
  name: string;
  remote: boolean;
  /** The commit it points at. */
  commit: string;
  /** A local branch's upstream, null when none. */
  upstream: string | null;
  current: boolean;
}

export interface GitBranchList {
  /** null when HEAD is detached or there is no repository commit yet and no branch. */
  current: string | null;
  branches: GitBranch[];
}

export interface GitCreateBranchRequest {
  name: string;
  /** Branch, tag or commit to start from (default HEAD). */
  from?: string;
  /** Switch to it as well (default true). */
  checkout?: boolean;
}

export interface GitCheckoutRequest {
  /** A local branch, or a remote one's short name (`feature` for `origin/feature`) to track it. */
  branch: string;
}

export interface GitCommitSummary {
  hash: string;
  author: string;
  email: string;
  /** ISO 8601 author date. */
  date: string;
  subject: string;
}

export interface GitLog {
  commits: GitCommitSummary[];
  /** More commits follow: ask again with skip + commits.length. */
  hasMore: boolean;
}

/** Files one status answer lists at most (all groups together); `truncated` beyond. */
export const GIT_STATUS_MAX_FILES = 5000;
/** Paths in one stage/unstage/discard request at most. */
export const GIT_PATHS_MAX = 1000;
/** Commits in one log page at most. */
export const GIT_LOG_MAX_LIMIT = 200;
/** Longest branch name (git has no limit; a ref file name has). */
export const GIT_BRANCH_NAME_MAX_LENGTH = 200;
/** Longest commit message. */
export const GIT_COMMIT_MESSAGE_MAX_LENGTH = 20_000;
