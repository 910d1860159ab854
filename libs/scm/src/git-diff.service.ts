import { Injectable } from '@nestjs/common';
import type { GitDiff, GitDiffSide } from '@h/contracts';
import { AppConfig } from '@h/config';
import { FileSandboxService, normalizeEntryPath } from '@h/files';
import { AppException } from '@h/http';
import { GitRunner } from './git-runner.service';
import { fromGitFailure } from './scm.exception';

const ABSENT: GitDiffSide = { text: '', exists: false, binary: false, tooLarge: false };
const DIFF_ARGS = ['--no-color', '--no-ext-diff', '--no-textconv'];

/**
 * One file's diff for the IDE's diff editor: both sides as text plus git's unified patch.
 * staged: HEAD → index. Not staged: index → working tree (a conflicted or untracked file: HEAD or
 * nothing → working tree). Sides above SCM_DIFF_MAX_BYTES or with binary content are left out.
 */
@Injectable()
export class GitDiffService {
  constructor(
    private readonly git: GitRunner,
    private readonly sandbox: FileSandboxService,
    private readonly config: AppConfig,
  ) {}

  async diff(workspaceId: string, rawPath: string, staged: boolean, rawOriginalPath?: string): Promise<GitDiff> {
    const path = normalizeEntryPath(rawPath);
    const originalPath = rawOriginalPath ? normalizeEntryPath(rawOriginalPath, 'originalPath') : path;
    const max = this.config.env.SCM_DIFF_MAX_BYTES;
    let original: GitDiffSide;
    let modified: GitDiffSide;
    if (staged) {
      original = await this.blob(workspaceId, `HEAD:${originalPath}`);
      modified = await this.blob(workspaceId, `:${path}`);
    } else {
      original = await this.blob(workspaceId, `:${path}`);
      if (!original.exists) original = await this.blob(workspaceId, `HEAD:${path}`);
      modified = await this.workingFile(workspaceId, path);
    }
    if (!original.exists && !modified.exists) {
      throw AppException.notFound(`${path}: no version in the ${staged ? 'index or HEAD' : 'working tree, index or HEAD'}`, 'FILE_NOT_FOUND');
    }
    // An untracked file has no index side for `git diff`; compare it with nothing instead.
    const args = staged
      ? ['diff', '--cached', '-M', ...DIFF_ARGS, '--', ...new Set([originalPath, path])]
      : original.exists
        ? ['diff', ...DIFF_ARGS, '--', path]
        : ['diff', '--no-index', ...DIFF_ARGS, '--', '/dev/null', path];
    const r = await this.git.run(workspaceId, args, { maxOutputBytes: max });
    // --no-index answers 1 when the files differ, which they do.
    if (r.exitCode !== 0 && !(r.exitCode === 1 && args.includes('--no-index'))) throw fromGitFailure(r.stderr, r.stdout);
    return { path, staged, original, modified, patch: r.stdout, patchTruncated: r.truncated };
  }

  /** A blob by git's name for it (`HEAD:path`, `:path`); absent when git has no such object. */
  private async blob(workspaceId: string, object: string): Promise<GitDiffSide> {
    const max = this.config.env.SCM_DIFF_MAX_BYTES;
    const r = await this.git.run(workspaceId, ['cat-file', 'blob', object], { maxOutputBytes: max });
    if (r.exitCode !== 0) {
      if (/not a git repository/i.test(r.stderr)) throw fromGitFailure(r.stderr, r.stdout);
      return ABSENT;
    }
    if (r.truncated) return { text: '', exists: true, binary: false, tooLarge: true };
    return textSide(r.stdout);
  }

  private async workingFile(workspaceId: string, path: string): Promise<GitDiffSide> {
    try {
      const r = await this.sandbox.call(workspaceId, 'fs.read', { path, encoding: 'base64', maxBytes: this.config.env.SCM_DIFF_MAX_BYTES });
      const bytes = Buffer.from(r.content, 'base64');
      if (bytes.includes(0)) return { text: '', exists: true, binary: true, tooLarge: false };
      return textSide(bytes.toString('utf8'));
    } catch (err) {
      if (err instanceof AppException && err.code === 'FILE_NOT_FOUND') return ABSENT;
      if (err instanceof AppException && err.code === 'FILE_TOO_LARGE') return { text: '', exists: true, binary: false, tooLarge: true };
      throw err;
    }
  }
}

/** sandboxd hands stdout over as UTF-8: NUL or replacement characters mean the bytes were not text. */
function textSide(text: string): GitDiffSide {
  if (text.includes('\0') || text.includes('\uFFFD')) return { text: '', exists: true, binary: true, tooLarge: false };
  return { text, exists: true, binary: false, tooLarge: false };
}
