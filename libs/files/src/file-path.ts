import { AppException } from '@h/http';

/** Longest path the file API takes (bytes of UTF-16 as JS counts; Linux's PATH_MAX is 4096). */
export const FILE_PATH_MAX_LENGTH = 4096;
/** Longest name of one file or directory (Linux NAME_MAX, in UTF-8 bytes). */
export const FILE_NAME_MAX_BYTES = 255;

/**
 * The host side's path rule, before anything reaches a sandbox: a relative, '/'-separated path
 * inside the workspace. Refused with 400 rather than normalised away: `..` as any segment, an
 * absolute path, a NUL (a backslash is an ordinary name character on Linux and stays). `.` and
 * empty segments are dropped, so `a//b/./c` is `a/b/c`; '' is the root. Express has already
 * decoded the query, so `%2e%2e` arrives here as `..`.
 * Symlinks that lead out are refused by sandboxd (`PATH_OUTSIDE_WORKSPACE`, also 400), which is
 * the only side that can see them.
 */
export function normalizeFilePath(input: unknown, what = 'path'): string {
  if (input === undefined || input === null) return '';
  if (typeof input !== 'string') throw AppException.badRequest('VALIDATION_FAILED', `${what} must be a string.`);
  if (input.length > FILE_PATH_MAX_LENGTH) throw AppException.badRequest('VALIDATION_FAILED', `${what} is longer than ${FILE_PATH_MAX_LENGTH} characters.`);
  if (input.includes('\0')) throw AppException.badRequest('VALIDATION_FAILED', `${what} contains a NUL character.`);
  if (input.startsWith('/')) {
    throw AppException.badRequest('PATH_OUTSIDE_WORKSPACE', `${what} must be relative to the workspace root (no leading "/"): ${preview(input)}.`);
  }
  const segments = input.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) {
    throw AppException.badRequest('PATH_OUTSIDE_WORKSPACE', `${what} may not contain "..": ${preview(input)}.`);
  }
  if (segments.some((s) => Buffer.byteLength(s) > FILE_NAME_MAX_BYTES)) {
    throw AppException.badRequest('VALIDATION_FAILED', `${what} has a name longer than ${FILE_NAME_MAX_BYTES} bytes (the file system's limit).`);
  }
  return segments.join('/');
}

/** A path that must name something below the root (write, create, move, delete). */
export function normalizeEntryPath(input: unknown, what = 'path'): string {
  const p = normalizeFilePath(input, what);
  if (!p) throw AppException.badRequest('VALIDATION_FAILED', `${what} must name a file or directory inside the workspace, not its root.`);
  return p;
}

function preview(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}
