import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Request, Response } from 'express';
import * as tar from 'tar-stream';
import { ZipFile } from 'yazl';
import { AppConfig } from '@h/config';
import { WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import type { AccessGrant, Principal } from '@h/identity';
import { WorkspaceService, type WorkspaceDto } from '@h/workspaces';
import { ArchiveError, normalizeArchive, sniffArchive } from './archive-normalizer';
import { importSpoolFile, uploadTempDir } from './git-paths';
import { ImportState } from './import-state';
import { SandboxShells } from './sandbox-shells';

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB`;

/** A file name for Content-Disposition: the workspace's name with only safe characters. */
export function archiveFileName(name: string, ext: string): string {
  const base = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'workspace';
  return `${base}.${ext}`;
}

// Archives in and out. In: the upload is spooled to H_DATA_DIR (WORKSPACE_ARCHIVE_MAX_BYTES), read
// and rewritten as a clean tar (archive-normalizer.ts refuses zip-slip, links out, devices, and
// sizes past the caps) before the workspace exists, so every refusal is an immediate 4xx; the
// worker streams the clean tar into the sandbox. Out: tar inside the sandbox, turned into gzip or a
// zip on the way (entry by entry, nothing held in memory or spooled).
@Injectable()
export class WorkspaceArchiveService {
  private readonly logger = new Logger(WorkspaceArchiveService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly workspaceService: WorkspaceService,
    private readonly workspaces: WorkspaceRepository,
    private readonly shells: SandboxShells,
    private readonly importer: ImportState,
  ) {}

  async importArchive(principal: Principal, access: AccessGrant, query: { name: string; description?: string }, req: Request, ip: string | null): Promise<WorkspaceDto> {
    const env = this.config.env;
    const dir = uploadTempDir(this.config);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const upload = join(dir, randomUUID());
    const clean = `${upload}.tar`;
    try {
      await this.spool(req, upload, env.WORKSPACE_ARCHIVE_MAX_BYTES);
      const kind = await sniffArchive(upload);
      if (!kind) throw new AppException(422, 'ARCHIVE_INVALID', 'The upload is not a zip, tar.gz or tar archive; send one of those as the request body.');
      const result = await normalizeArchive(upload, kind, clean, { maxUnpackedBytes: env.WORKSPACE_ARCHIVE_MAX_UNPACKED_BYTES, maxFiles: env.WORKSPACE_ARCHIVE_MAX_FILES }).catch((e) => {
        throw toHttp(e);
      });
      this.logger.log({ teamId: access.teamId, kind, files: result.files, bytes: result.bytes }, 'archive accepted');
      return await this.workspaceService.create(principal, access, { name: query.name, description: query.description }, ip, async (workspaceId) => {
        const spool = importSpoolFile(this.config, workspaceId);
        await mkdir(dirname(spool), { recursive: true, mode: 0o700 });
        await rename(clean, spool);
      });
    } finally {
      await rm(upload, { force: true });
      await rm(clean, { force: true });
    }
  }

  /** Writes the request body to `file`, refusing past `limit` with 413 (the rest is read and dropped). */
  private async spool(req: Request, file: string, limit: number): Promise<void> {
    const tooLarge = () => new AppException(413, 'ARCHIVE_TOO_LARGE', `The archive is larger than the ${mib(limit)} limit (WORKSPACE_ARCHIVE_MAX_BYTES).`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      throw tooLarge();
    }
    let seen = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        done(seen > limit ? tooLarge() : null, chunk);
      },
    });
    try {
      await pipeline(req, counter, createWriteStream(file, { mode: 0o600 }));
    } catch (e) {
      if (e instanceof AppException) {
        req.resume(); // read the rest, so the client receives the answer instead of a reset
        throw e;
      }
      throw new AppException(400, 'BAD_REQUEST', 'The upload could not be read to its end.');
    }
    if (seen === 0) throw new AppException(422, 'ARCHIVE_INVALID', 'The request body is empty; send a zip or tar.gz archive.');
  }

  /** Streams the workspace's files (with .git) as tar.gz or zip. */
  async download(access: AccessGrant, id: string, res: Response, format: ArchiveFormat = 'tar.gz'): Promise<void> {
    const workspace = await this.workspaces.findById(id);
    if (!workspace || workspace.teamId !== access.teamId) throw AppException.notFound('Workspace');
    if (workspace.status !== 'ready' && (await this.importer.pending(id))) {
      throw AppException.conflict('WORKSPACE_NOT_READY', `The workspace's files are still being brought in (${workspace.status}); download it once it is ready.`);
    }
    const shell = await this.shells.open(workspace);
    const file = archiveFileName(workspace.name, format);
    res.status(200);
    res.setHeader('Content-Type', format === 'zip' ? 'application/zip' : 'application/gzip');
    res.setHeader('Content-Disposition', `attachment; filename="${file}"; filename*=UTF-8''${encodeURIComponent(file)}`);
    res.setHeader('Cache-Control', 'no-store');
    const { input, sent } = format === 'zip' ? tarToZip(res) : { input: createGzip(), sent: null };
    const done = sent ?? pipeline(input, res);
    const finished = done.catch((err: unknown) => {
      this.logger.warn({ workspaceId: id, err }, 'workspace archive stream ended early');
      res.destroy();
    });
    // lost+found belongs to root on a disk-budgeted volume and is not the project's.
    const r = await shell.run(['tar', '-c', '-f', '-', '--exclude=./lost+found', '-C', shell.root, '.'], { stdout: input });
    await finished;
    if (r.code !== 0) this.logger.warn({ workspaceId: id, code: r.code, stderr: r.stderr.slice(0, 500) }, 'workspace archive ended with an error');
  }
}

export type ArchiveFormat = 'tar.gz' | 'zip';

/**
 * A writable that takes a tar stream and writes the same tree to `out` as a zip: regular files
 * (deflated, mode and mtime kept), directories, and symlinks (stored as links, the unix way: mode
 * 0120777 and the target as content). Other entry types (devices, fifos) have no place in a zip
 * and are left out. Entries are read one at a time (tar-stream waits for each to be consumed), so
 * memory stays flat whatever the workspace's size; yazl writes ZIP64 records where needed.
 */
function tarToZip(out: Writable): { input: Writable; sent: Promise<void> } {
  const extract = tar.extract();
  const zip = new ZipFile();
  const sent = pipeline(zip.outputStream, out);
  extract.on('entry', (header, stream, next) => {
    const name = header.name.replace(/^\.\//, '');
    const mtime = header.mtime ?? new Date();
    const mode = header.mode ?? 0o644;
    if (!name || name === '.' || name === './') {
      stream.resume();
      stream.on('end', next);
      return;
    }
    if (header.type === 'file' || header.type === 'contiguous-file') {
      const data = new PassThrough();
      stream.pipe(data);
      stream.on('end', next);
      zip.addReadStream(data, name, { mtime, mode: 0o100000 | (mode & 0o7777), size: header.size });
      return;
    }
    if (header.type === 'directory') zip.addEmptyDirectory(name.replace(/\/+$/, ''), { mtime, mode: 0o40000 | (mode & 0o7777) });
    else if (header.type === 'symlink' && header.linkname) zip.addBuffer(Buffer.from(header.linkname), name, { mtime, mode: 0o120777, compress: false });
    stream.resume();
    stream.on('end', next);
  });
  extract.on('finish', () => zip.end());
  extract.on('error', (err) => (zip.outputStream as unknown as Readable).destroy(err));
  return { input: extract as unknown as Writable, sent };
}

function toHttp(e: unknown): unknown {
  if (!(e instanceof ArchiveError)) return e;
  if (e.problem === 'unsafe') return new AppException(422, 'ARCHIVE_UNSAFE_ENTRY', e.message);
  if (e.problem === 'too_large') return new AppException(422, 'ARCHIVE_UNPACKED_TOO_LARGE', e.message);
  return new AppException(422, 'ARCHIVE_INVALID', e.message);
}
