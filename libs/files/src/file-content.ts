import { createHash } from 'node:crypto';
import type { FileEtag, FileTextEncoding } from '@h/contracts';

/** The ETag of some bytes: SHA-256 hex in double quotes (what sandboxd's hashes become). */
export function etagOf(data: Buffer): FileEtag {
  return etagFromSha256(createHash('sha256').update(data).digest('hex'));
}

export function etagFromSha256(hex: string): FileEtag {
  return `"${hex}"`;
}

/**
 * The SHA-256 an If-Match names: one strong ETag (`"hex"`, quotes optional), `*`, or nothing.
 * A list or a weak ETag (`W/"…"`) is refused: a write must name exactly the version it saw.
 */
export function parseIfMatch(header: string | undefined): { kind: 'none' } | { kind: 'any' } | { kind: 'etag'; sha256: string } | { kind: 'invalid' } {
  if (header === undefined) return { kind: 'none' };
  const v = header.trim();
  if (v === '*') return { kind: 'any' };
  const m = /^"?([0-9a-fA-F]{64})"?$/.exec(v);
  return m ? { kind: 'etag', sha256: m[1].toLowerCase() } : { kind: 'invalid' };
}

/** UTF-8 text as a string; anything else (a NUL byte, invalid UTF-8) as base64. */
export function toJsonContent(data: Buffer): { encoding: FileTextEncoding; content: string } {
  if (!data.includes(0)) {
    try {
      return { encoding: 'utf8', content: new TextDecoder('utf-8', { fatal: true }).decode(data) };
    } catch {
      // not UTF-8: base64 below
    }
  }
  return { encoding: 'base64', content: data.toString('base64') };
}

// Raw reads are served from H's own origin, so a workspace's HTML or SVG must never run there:
// only types that cannot script are named as themselves; markup and scripts are text/plain, and
// the answer also carries `Content-Security-Policy: sandbox` and nosniff.
const SAFE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  json: 'application/json',
  wasm: 'application/wasm',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
};

/** The Content-Type of a raw read, from the name, then whether the bytes are text. */
export function contentTypeFor(path: string, data: Buffer): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (ext && SAFE_TYPES[ext]) return SAFE_TYPES[ext];
  return isUtf8Text(data) ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

export function isUtf8Text(data: Buffer): boolean {
  return toJsonContent(data).encoding === 'utf8';
}
