import { Injectable } from '@nestjs/common';
import type { FileTextEncoding } from '@h/contracts';
import { AppConfig } from '@h/config';
import { AppException } from '@h/http';
import { RpcError } from '@h/sandbox-protocol';
import { contentTypeFor, etagFromSha256, etagOf, parseIfMatch, toJsonContent } from './file-content';
import { normalizeEntryPath, normalizeFilePath } from './file-path';
import { FileSandboxService } from './file-sandbox.service';
import { filesError } from './files.exception';
import type { CreatedEntryDto, CreateFileDto, FileContentDto, FileTreeDto, FileWriteResultDto, MovedEntryDto, TreeQueryDto } from './files.dto';
import { FilesWatchHub } from './files-watch.hub';

export interface RawFile {
  data: Buffer;
  etag: string;
  contentType: string;
}

/**
 * The file API over the workspace's sandbox (sandboxd's fs.* methods). Paths are checked on this
 * side first (file-path.ts) and again, with symlinks resolved, inside the sandbox.
 *
 * Writes are conditional, so two editors cannot overwrite each other unseen: `If-Match: "<etag>"`
 * writes only over that version (409 EDIT_CONFLICT with both versions otherwise), `If-Match: *`
 * over whatever file is there (412 if none), and no If-Match only creates: over an existing file
 * it is 428 PRECONDITION_REQUIRED. sandboxd checks and writes under one per-file lock.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly sandbox: FileSandboxService,
    private readonly hub: FilesWatchHub,
    private readonly config: AppConfig,
  ) {}

  async tree(workspaceId: string, query: TreeQueryDto): Promise<FileTreeDto> {
    const path = normalizeFilePath(query.path);
    const max = this.config.env.FILE_TREE_MAX_ENTRIES;
    const maxEntries = Math.min(query.limit ?? max, max);
    const r = await this.sandbox.call(workspaceId, 'fs.list', { path: path || '.', recursive: query.recursive === 'true', maxEntries });
    return { path, entries: r.entries.map((e) => ({ path: e.path, name: e.name, type: e.type, size: e.size })), truncated: r.truncated };
  }

  async readRaw(workspaceId: string, rawPath: string): Promise<RawFile> {
    const path = normalizeEntryPath(rawPath);
    const data = await this.readBytes(workspaceId, path);
    return { data, etag: etagOf(data), contentType: contentTypeFor(path, data) };
  }

  async readJson(workspaceId: string, rawPath: string): Promise<FileContentDto> {
    const path = normalizeEntryPath(rawPath);
    const data = await this.readBytes(workspaceId, path);
    return { path, ...toJsonContent(data), etag: etagOf(data), size: data.length };
  }

  /** PUT content and upload: the body's bytes under the If-Match rules above. */
  async write(workspaceId: string, rawPath: string, data: Buffer, ifMatch: string | undefined): Promise<FileWriteResultDto> {
    const path = normalizeEntryPath(rawPath);
    const cond = parseIfMatch(ifMatch);
    if (cond.kind === 'invalid') {
      throw AppException.badRequest('VALIDATION_FAILED', 'If-Match must be one ETag as the API gave it ("<64 hex digits>") or *.');
    }
    if (cond.kind === 'any') {
      const st = await this.sandbox.call(workspaceId, 'fs.stat', { path });
      if (!st) throw filesError('PRECONDITION_FAILED', `${path}: no such file; If-Match: * overwrites an existing file only (leave If-Match out to create one).`);
    }
    const ifSha256 = cond.kind === 'etag' ? cond.sha256 : cond.kind === 'none' ? null : undefined;
    try {
      const r = await this.sandbox.call(workspaceId, 'fs.write', { path, content: data.toString('base64'), encoding: 'base64', ifSha256 });
      return { path, etag: etagFromSha256(r.sha256), size: r.size, created: r.created };
    } catch (err) {
      if (!(err instanceof RpcError) || err.data?.code !== 'EDIT_CONFLICT') throw err;
      return this.conflict(workspaceId, path, data, cond.kind === 'etag' ? etagFromSha256(cond.sha256) : null);
    }
  }

  async create(workspaceId: string, rawPath: string, body: CreateFileDto): Promise<CreatedEntryDto> {
    const path = normalizeEntryPath(rawPath);
    if (body.type === 'directory') {
      if (body.content !== undefined) throw AppException.badRequest('VALIDATION_FAILED', 'A directory has no content.');
      if (await this.sandbox.call(workspaceId, 'fs.stat', { path })) throw filesError('ALREADY_EXISTS', `${path}: already exists.`);
      await this.sandbox.call(workspaceId, 'fs.mkdir', { path });
      return { path, type: 'directory' };
    }
    const data = Buffer.from(body.content ?? '', body.encoding ?? 'utf8');
    try {
      const r = await this.sandbox.call(workspaceId, 'fs.write', { path, content: data.toString('base64'), encoding: 'base64', ifSha256: null });
      return { path, type: 'file', etag: etagFromSha256(r.sha256) };
    } catch (err) {
      const code = err instanceof RpcError ? err.data?.code : err instanceof AppException ? err.code : undefined;
      if (code === 'EDIT_CONFLICT' || code === 'IS_DIRECTORY') throw filesError('ALREADY_EXISTS', `${path}: already exists.`);
      throw err;
    }
  }

  async move(workspaceId: string, rawFrom: string, rawTo: string): Promise<MovedEntryDto> {
    const from = normalizeEntryPath(rawFrom, 'from');
    const to = normalizeEntryPath(rawTo, 'to');
    if (from === to) throw AppException.badRequest('VALIDATION_FAILED', 'from and to are the same path.');
    if (to.startsWith(`${from}/`)) throw AppException.badRequest('VALIDATION_FAILED', `Cannot move ${from} into itself (${to}).`);
    await this.sandbox.call(workspaceId, 'fs.rename', { from, to });
    this.hub.noteRename(workspaceId, from, to);
    return { path: to, from };
  }

  async remove(workspaceId: string, rawPath: string, recursive: boolean): Promise<void> {
    const path = normalizeEntryPath(rawPath);
    try {
      await this.sandbox.call(workspaceId, 'fs.delete', { path, recursive });
    } catch (err) {
      if (err instanceof AppException && err.code === 'IS_DIRECTORY') {
        throw filesError('IS_DIRECTORY', `${path} is a directory: delete it with recursive=true (everything in it goes too).`);
      }
      throw err;
    }
  }

  private async readBytes(workspaceId: string, path: string): Promise<Buffer> {
    const r = await this.sandbox.call(workspaceId, 'fs.read', { path, encoding: 'base64', maxBytes: this.config.env.SANDBOX_READ_MAX_BYTES });
    return Buffer.from(r.content, 'base64');
  }

  /** The 409 (or, for a write without If-Match over an existing file, the 428) with both versions. */
  private async conflict(workspaceId: string, path: string, data: Buffer, baseEtag: string | null): Promise<FileWriteResultDto> {
    let current: { etag: string | null; size: number; encoding?: FileTextEncoding; content?: string } | null;
    try {
      const bytes = await this.readBytes(workspaceId, path);
      current = { etag: etagOf(bytes), size: bytes.length, ...toJsonContent(bytes) };
    } catch (err) {
      if (err instanceof AppException && err.code === 'FILE_NOT_FOUND') current = null;
      else if (err instanceof AppException && err.code === 'FILE_TOO_LARGE') {
        const st = await this.sandbox.call(workspaceId, 'fs.stat', { path });
        current = { etag: null, size: st?.size ?? 0 };
      } else throw err;
    }
    const yours = { baseEtag, etag: etagOf(data), ...toJsonContent(data) };
    if (baseEtag === null) {
      throw filesError(
        'PRECONDITION_REQUIRED',
        `${path} already exists: send If-Match with the ETag you read (GET …/files/content) to replace that version, or If-Match: * to overwrite whatever is there.`,
        { current: current && { etag: current.etag, size: current.size } },
      );
    }
    // A retried write whose first attempt went through: the file already is what was sent.
    if (current?.etag === yours.etag) return { path, etag: yours.etag, size: data.length, created: false };
    throw filesError(
      'EDIT_CONFLICT',
      current
        ? `${path}: the file changed since it was read. Compare both versions, then write again with If-Match set to current.etag.`
        : `${path}: the file was deleted since it was read. Write without If-Match to create it again.`,
      { current, yours },
    );
  }
}

