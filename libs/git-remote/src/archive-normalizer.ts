import { createReadStream, createWriteStream } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import * as yauzl from 'yauzl';

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar';

export interface ArchiveLimits {
  maxUnpackedBytes: number;
  maxFiles: number;
}

export type ArchiveProblem = 'invalid' | 'unsafe' | 'too_large';

export class ArchiveError extends Error {
  constructor(
    readonly problem: ArchiveProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface NormalizedArchive {
  files: number;
  bytes: number;
}

/** zip, gzip or plain tar, from the first bytes (the content type a browser sends is not to be trusted). */
export async function sniffArchive(file: string): Promise<ArchiveKind | null> {
  const fh = await openFile(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await fh.read(head, 0, 512, 0);
    if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)) return 'zip';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
    return null;
  } finally {
    await fh.close();
  }
}

/**
 * The entry's path inside the workspace, or an ArchiveError: no absolute paths, no "..", no NUL,
 * and links only to places inside. What the sandbox unpacks is the clean tar this writes, so tar's
 * own leniency in the sandbox never sees a hostile name.
 */
export function safeEntryPath(name: string, linkTarget?: string | null): string {
  const raw = name.replace(/\\/g, '/');
  if (raw.includes('\0')) throw new ArchiveError('unsafe', 'An archive entry name contains NUL.');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw new ArchiveError('unsafe', `The archive entry "${raw.slice(0, 200)}" has an absolute path; only paths inside the workspace are unpacked.`);
  const parts = raw.split('/').filter((p) => p && p !== '.');
  if (parts.includes('..')) throw new ArchiveError('unsafe', `The archive entry "${raw.slice(0, 200)}" climbs out with ".."; it was refused (zip-slip).`);
  const clean = parts.join('/');
  if (linkTarget !== undefined && linkTarget !== null) {
    const t = linkTarget.replace(/\\/g, '/');
    const resolved = posix.normalize(posix.join(posix.dirname(clean), t));
    // ".." only in front: "x/.." through another link could leave the tree though it reads as inside.
    const segs = t.split('/').filter((p) => p && p !== '.');
    const climbsLate = segs.some((p, i) => p === '..' && segs.slice(0, i).some((q) => q !== '..'));
    if (t.startsWith('/') || t.includes('\0') || climbsLate || resolved === '..' || resolved.startsWith('../')) {
      throw new ArchiveError('unsafe', `The link "${clean.slice(0, 200)}" points outside the workspace (${t.slice(0, 200)}); it was refused.`);
    }
  }
  return clean;
}

class Budget {
  files = 0;
  bytes = 0;
  private readonly links = new Set<string>();
  private readonly regular = new Set<string>();
  constructor(private readonly limits: ArchiveLimits) {}

  /** Refuses an entry below a link the archive made (it would be written wherever the link points). */
  place(name: string, kind: 'file' | 'dir' | 'symlink'): string {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (this.links.has(parts.slice(0, i).join('/'))) throw new ArchiveError('unsafe', `The archive entry "${name.slice(0, 200)}" lies below a link of the same archive; it was refused.`);
    }
    if (kind === 'symlink') this.links.add(name);
    if (kind === 'file') this.regular.add(name);
    return name;
  }

  /** Hard links only to regular files that came earlier (a hard link to a symlink would move its target). */
  hardLinkTarget(target: string): string {
    if (!this.regular.has(target)) throw new ArchiveError('unsafe', `A hard link in the archive points at "${target.slice(0, 200)}", which is not a file of the archive.`);
    return target;
  }

  add(size: number): void {
    this.files += 1;
    this.bytes += size;
    if (this.files > this.limits.maxFiles) throw new ArchiveError('too_large', `The archive holds more than ${this.limits.maxFiles} entries (WORKSPACE_ARCHIVE_MAX_FILES).`);
    if (this.bytes > this.limits.maxUnpackedBytes) {
      throw new ArchiveError('too_large', `The archive unpacks to more than ${this.limits.maxUnpackedBytes} bytes (WORKSPACE_ARCHIVE_MAX_UNPACKED_BYTES).`);
    }
  }
}

const MODE_FILE = 0o644;
const MODE_EXEC = 0o755;
const modeOf = (mode: number | undefined, dir = false) => (dir ? 0o755 : (mode ?? 0) & 0o111 ? MODE_EXEC : MODE_FILE);

/** Reads a zip, tar.gz or tar upload and writes a checked, plain tar of regular files, dirs and safe links to `out`. */
export async function normalizeArchive(input: string, kind: ArchiveKind, out: string, limits: ArchiveLimits): Promise<NormalizedArchive> {
  const pack = tar.pack();
  const written = pipeline(pack, createWriteStream(out, { mode: 0o600 }));
  const budget = new Budget(limits);
  try {
    if (kind === 'zip') await fromZip(input, pack, budget);
    else await fromTar(input, kind === 'tar.gz', pack, budget);
    pack.finalize();
    await written;
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    throw err;
  }
  return { files: budget.files, bytes: budget.bytes };
}

type EntryHeader = Partial<tar.Header> & Pick<tar.Header, 'name'>;
interface Body {
  // Node streams (yauzl) and streamx streams (tar-stream entries) alike.
  pipe(destination: any): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
}

function addEntry(pack: tar.Pack, header: EntryHeader, body?: Body): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = pack.entry(header, (err) => (err ? reject(err) : resolve()));
    if (body) {
      body.on('error', (e) => {
        entry.destroy(e);
        reject(e);
      });
      body.pipe(entry);
    } else entry.end(undefined);
  });
}

async function fromTar(input: string, gzipped: boolean, pack: tar.Pack, budget: Budget): Promise<void> {
  const extract = tar.extract();
  const reading = (gzipped ? pipeline(createReadStream(input), createGunzip(), extract) : pipeline(createReadStream(input), extract)).catch((e: Error) => {
    throw e instanceof ArchiveError ? e : new ArchiveError('invalid', `The upload is not a readable tar${gzipped ? '.gz' : ''} archive (${e.message}).`);
  });
  const entries = (async () => {
    for await (const entry of extract) {
      const h = entry.header;
      const type = h.type ?? 'file';
      if (type === 'file' || type === 'contiguous-file') {
        const name = safeEntryPath(h.name);
        if (!name) {
          entry.resume();
          continue;
        }
        budget.place(name, 'file');
        budget.add(h.size ?? 0);
        await addEntry(pack, { name, type: 'file', size: h.size ?? 0, mode: modeOf(h.mode), mtime: h.mtime }, entry);
      } else if (type === 'directory') {
        const name = safeEntryPath(h.name);
        entry.resume();
        if (!name) continue;
        budget.place(name, 'dir');
        budget.add(0);
        await addEntry(pack, { name, type: 'directory', mode: 0o755, mtime: h.mtime });
      } else if (type === 'symlink') {
        const name = budget.place(safeEntryPath(h.name, h.linkname ?? ''), 'symlink');
        entry.resume();
        budget.add(0);
        await addEntry(pack, { name, type: 'symlink', linkname: h.linkname ?? '', mtime: h.mtime });
      } else if (type === 'link') {
        const name = budget.place(safeEntryPath(h.name), 'file');
        const target = budget.hardLinkTarget(safeEntryPath(h.linkname ?? ''));
        entry.resume();
        budget.add(0);
        await addEntry(pack, { name, type: 'link', linkname: target, mtime: h.mtime });
      } else {
        throw new ArchiveError('unsafe', `The archive entry "${h.name.slice(0, 200)}" is a ${type}; only files, directories and links are unpacked.`);
      }
    }
  })();
  await Promise.all([reading, entries]).catch(async (e) => {
    extract.destroy();
    throw e;
  });
}

function openZip(input: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(input, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => (err || !zip ? reject(err) : resolve(zip))),
  );
}

function readAll(stream: Readable, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    stream.on('data', (c: Buffer) => {
      n += c.length;
      if (n > max) stream.destroy(new ArchiveError('unsafe', 'A link target in the archive is too long.'));
      else chunks.push(c);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

async function fromZip(input: string, pack: tar.Pack, budget: Budget): Promise<void> {
  const zip = await openZip(input).catch((e: Error) => {
    throw new ArchiveError('invalid', `The upload is not a readable zip archive (${e.message}).`);
  });
  const wrap = (e: unknown) =>
    e instanceof ArchiveError
      ? e
      : /invalid relative path|absolute path/i.test(String((e as Error)?.message))
        ? new ArchiveError('unsafe', `An archive entry would land outside the workspace (${(e as Error).message}); it was refused (zip-slip).`)
        : new ArchiveError('invalid', `The zip archive could not be read (${(e as Error)?.message ?? e}).`);
  const openEntry = (entry: yauzl.Entry) =>
    new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err || !s ? reject(err) : resolve(s))));
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (e) => reject(wrap(e)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
          const kind = unixMode & 0o170000;
          const isDir = entry.fileName.endsWith('/');
          const mtime = entry.getLastModDate();
          if (isDir) {
            const name = safeEntryPath(entry.fileName);
            if (name) {
              budget.place(name, 'dir');
              budget.add(0);
              await addEntry(pack, { name, type: 'directory', mode: 0o755, mtime });
            }
          } else if (kind === 0o120000) {
            const target = await readAll(await openEntry(entry), 4096);
            const name = budget.place(safeEntryPath(entry.fileName, target), 'symlink');
            budget.add(0);
            await addEntry(pack, { name, type: 'symlink', linkname: target, mtime });
          } else if (kind === 0 || kind === 0o100000) {
            const name = budget.place(safeEntryPath(entry.fileName), 'file');
            budget.add(entry.uncompressedSize);
            await addEntry(pack, { name, type: 'file', size: entry.uncompressedSize, mode: modeOf(unixMode), mtime }, await openEntry(entry));
          } else {
            throw new ArchiveError('unsafe', `The archive entry "${entry.fileName.slice(0, 200)}" is not a file, directory or link.`);
          }
          zip.readEntry();
        })().catch((e) => reject(wrap(e)));
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
