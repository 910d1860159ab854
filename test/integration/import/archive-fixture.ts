import { createGunzip, gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import * as yauzl from 'yauzl';

export interface ArchiveEntry {
  name: string;
  content?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink';
  linkname?: string;
  mode?: number;
}

/** A tar.gz of `entries`, names as given (hostile ones too). */
export async function makeTarGz(entries: ArchiveEntry[]): Promise<Buffer> {
  return gzipSync(await makeTar(entries));
}

/** A plain tar of `entries` (ASCII names and contents stay ASCII: it can travel as a string body). */
export async function makeTar(entries: ArchiveEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => void chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const e of entries) {
    const type = e.type ?? 'file';
    if (type === 'file') pack.entry({ name: e.name, mode: e.mode ?? 0o644 }, Buffer.from(e.content ?? ''));
    else pack.entry({ name: e.name, type, linkname: e.linkname, mode: type === 'directory' ? 0o755 : 0o777 });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** name → content of every regular file in a tar.gz (leading "./" dropped). */
export async function readTarGz(data: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: unknown) => void parts.push(c as Buffer));
      stream.on('end', () => {
        if (header.type === 'file') files.set(header.name.replace(/^\.\//, ''), Buffer.concat(parts));
        next();
      });
      stream.resume();
    });
    extract.on('finish', () => resolve());
    extract.on('error', reject);
  });
  Readable.from(data).pipe(createGunzip()).pipe(extract);
  await done;
  return files;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip (stored, no compression) of `entries`, names written exactly as given, so tests can make the
 * archives a zip-slip attack would send. Symlinks carry the unix mode in the external attributes.
 */
export function makeZip(entries: ArchiveEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const type = e.type ?? 'file';
    const name = Buffer.from(type === 'directory' && !e.name.endsWith('/') ? `${e.name}/` : e.name);
    const data = type === 'symlink' ? Buffer.from(e.linkname ?? '') : Buffer.from(e.content ?? '');
    const crc = crc32(data);
    const mode = type === 'symlink' ? 0o120777 : type === 'directory' ? 0o040755 : 0o100000 | (e.mode ?? 0o644);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** name → content and unix mode of every entry of a zip (directories end in "/"), read with yauzl. */
export async function readZip(data: Buffer): Promise<Map<string, { content: Buffer; mode: number }>> {
  const zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, strictFileNames: true });
  const out = new Map<string, { content: Buffer; mode: number }>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const mode = entry.externalFileAttributes >>> 16;
      if (entry.fileName.endsWith('/')) {
        out.set(entry.fileName, { content: Buffer.alloc(0), mode });
        return zip.readEntry();
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, { content: Buffer.concat(parts), mode });
          zip.readEntry();
        });
        stream.on('error', reject);
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}
