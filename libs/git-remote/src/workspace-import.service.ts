import { Injectable, Logger } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { AppConfig } from '@h/config';
import type { WorkspaceRecord } from '@h/db';
import type { SandboxRecord } from '@h/sandbox';
import { WorkspaceImporter } from '@h/workspaces';
import { GitCredentialStore } from './git-credential.store';
import { progressMessage } from './git-output';
import { importSpoolFile } from './git-paths';
import { GitRemoteError, HostGit } from './host-git';
import type { SandboxShell } from './sandbox-shell';
import { ImportState } from './import-state';
import { SandboxShells } from './sandbox-shells';

const PROGRESS_EVERY_MS = 400;

/** Calls `report` at most every PROGRESS_EVERY_MS with the latest message (and always on a new phase). */
function throttled(report: (message: string) => void): (message: string) => void {
  let last = 0;
  let lastPhase = '';
  return (message) => {
    const phase = message.replace(/\d+%/, '');
    const now = Date.now();
    if (phase === lastPhase && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    lastPhase = phase;
    report(message);
  };
}

const exists = (p: string) => stat(p).then(() => true, () => false);

// The worker's half of "bring a project in": the clone runs here on the host with the stored
// credential, then the tree (with .git, whose remote URL carries no secret) is streamed into the
// sandbox as a tar; an uploaded archive (already checked and rewritten by the api) is streamed in
// the same way.
@Injectable()
export class WorkspaceImportService extends WorkspaceImporter {
  private readonly logger = new Logger(WorkspaceImportService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly credentials: GitCredentialStore,
    private readonly git: HostGit,
    private readonly shells: SandboxShells,
    private readonly state: ImportState,
  ) {
    super();
  }

  pending(workspaceId: string): Promise<boolean> {
    return this.state.pending(workspaceId);
  }

  async run(workspace: WorkspaceRecord, record: SandboxRecord, progress: (message: string) => void): Promise<string | null> {
    const shell = await this.shells.for(record);
    const spool = importSpoolFile(this.config, workspace.id);
    if (await exists(spool)) {
      await this.unpack(shell, spool, progress);
      await rm(spool, { force: true });
      return null;
    }
    return this.clone(workspace, shell, progress);
  }

  private async unpack(shell: SandboxShell, spool: string, progress: (message: string) => void): Promise<void> {
    const size = (await stat(spool)).size;
    let sent = 0;
    const report = throttled(progress);
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sent += chunk.length;
        report(`Unpacking… ${Math.min(99, Math.floor((sent / Math.max(size, 1)) * 100))}%`);
        done(null, chunk);
      },
    });
    progress('Unpacking…');
    const input = createReadStream(spool).pipe(counter);
    await shell.check(['tar', '-x', '-f', '-', '-C', shell.root], { stdin: input });
  }

  private async clone(workspace: WorkspaceRecord, shell: SandboxShell, progress: (message: string) => void): Promise<string | null> {
    const access = await this.credentials.access(workspace.id);
    if (!access) return null;
    const scratch = await mkdtemp(join(tmpdir(), 'h-clone-'));
    const repo = join(scratch, 'repo');
    try {
      progress('Cloning…');
      const report = throttled(progress);
      const branch = access.branch ? ['--branch', access.branch] : [];
      try {
        await this.git.remote(workspace.id, access, (url) => ['clone', '--progress', ...branch, '--', url, repo], {
          onStderrLine: (line) => {
            const message = progressMessage(line);
            if (message) report(message);
          },
        });
      } catch (e) {
        if (e instanceof GitRemoteError) {
          this.logger.log({ workspaceId: workspace.id, kind: e.failure.kind }, 'clone failed');
          return e.failure.message;
        }
        throw e;
      }
      progress('Copying the files into the workspace…');
      await this.copyIn(shell, repo);
      await this.credentials.markCloned(workspace.id);
      this.logger.log({ workspaceId: workspace.id }, 'workspace cloned');
      return null;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Streams a host directory's contents into the workspace root as a tar (top-level entries, not "."). */
  private async copyIn(shell: SandboxShell, dir: string): Promise<void> {
    const entries = await readdir(dir);
    if (!entries.length) return;
    const tar = spawn('tar', ['-c', '-C', dir, '--', ...entries], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    tar.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => tar.on('close', resolve));
    // Consumed at once: Node drops an unread child stdout when the child exits (a small tree fits in
    // the pipe buffers, so tar exits before the sandbox side is attached).
    const input = tar.stdout.pipe(new PassThrough());
    await shell.check(['tar', '-x', '-f', '-', '-C', shell.root], { stdin: input });
    const code = await exited;
    if (code !== 0) throw new Error(`tar of the clone failed (${code}): ${err.slice(0, 300)}`);
  }
}
