import type { GitWorkspaceSource } from '@h/contracts';
import type { WorkspaceRecord } from '@h/db';
import type { SandboxRecord } from '@h/sandbox';

/**
 * Where a new workspace's files come from, implemented by libs/git-remote (which depends on this
 * lib, not the other way round) and provided by its global modules: the api's checks and stores the
 * git source when the workspace is created, the worker's brings the files in during setup.
 */
export abstract class WorkspaceSourceStore {
  /** Checks URL, branch and credential (400 saying what is wrong) before anything is created. */
  abstract check(source: GitWorkspaceSource): Promise<unknown>;
  /** Stores what check() returned for the new workspace, credential encrypted. */
  abstract save(workspaceId: string, checked: unknown): Promise<void>;
}

export abstract class WorkspaceImporter {
  /** Whether a clone or an uploaded archive still has to reach the workspace's sandbox. */
  abstract pending(workspaceId: string): Promise<boolean>;
  /**
   * Brings the files into the running sandbox, reporting progress as status messages. Resolves to
   * null when done, or to what the user should do (bad token, unknown branch…): a failure that a
   * retry of the job would only repeat. Throws for failures worth retrying.
   */
  abstract run(workspace: WorkspaceRecord, record: SandboxRecord, progress: (message: string) => void): Promise<string | null>;
}
