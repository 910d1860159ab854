// Git as it travels: the remote side (fetch, pull, push through H's stored credential, libs/git-remote)
// lives here; the SCM panel's local operations add theirs in scm.ts. Zod-free: the web imports it.
import type { GitAuthKind } from './workspace-api';

/** A workspace's git remote as any member may see it: never the token or key. */
export interface GitRemoteStatus<TDate = string> {
  /** The remote URL without credentials. */
  url: string;
  branch: string | null;
  authKind: GitAuthKind;
  username: string | null;
  /** Whether a token or deploy key is stored. */
  hasCredential: boolean;
  updatedAt: TDate;
}

/** One ref a fetch, pull or push changed. */
export interface GitRefUpdate {
  /** e.g. `refs/remotes/origin/main` (fetch) or `refs/heads/main` (push, on the remote). */
  ref: string;
  /** null when the ref is new. */
  from: string | null;
  /** null when the ref was deleted. */
  to: string | null;
}

export const GIT_REMOTE_OPERATIONS = ['fetch', 'pull', 'push'] as const;
export type GitRemoteOperation = (typeof GIT_REMOTE_OPERATIONS)[number];

/** What `POST /workspaces/:id/git/{fetch,pull,push}` answers. */
export interface GitRemoteResult {
  operation: GitRemoteOperation;
  /** The local branch pulled into or pushed (null for a fetch). */
  branch: string | null;
  /** Refs that moved; empty when everything was up to date. */
  updated: GitRefUpdate[];
  /** pull: how the branch moved (`fast-forward`, `merge`, `up-to-date`); otherwise null. */
  merge: 'fast-forward' | 'merge' | 'up-to-date' | null;
  /** HEAD after the operation. */
  head: string | null;
  /** One line for a person ("Pushed main to origin (3 commits)."). */
  message: string;
}

/** `POST /workspaces/:id/git/push` */
export interface GitPushRequest {
  /** Local branch to push; default the checked-out one. */
  branch?: string;
  /** Make origin/<branch> the branch's upstream. */
  setUpstream?: boolean;
}
