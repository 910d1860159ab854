// The seed's diagnostics pipeline, applied to every `textDocument/publishDiagnostics` before it is
// cached or sent: Error and Warning only (undefined severity is Error, as the LSP spec says), invalid
// or inverted ranges dropped, at most DIAGNOSTICS_MAX_PER_FILE per file (errors first), and the
// server's URI normalised to a workspace-relative path (files outside the workspace dropped).
import * as path from 'node:path';
import { DIAGNOSTICS_MAX_PER_FILE, type Diagnostic, type TextRange } from '@h/contracts';
import { WORKSPACE_ROOT } from '@h/sandbox-protocol';

/** Longest message kept (a server may print a whole type); the rest is cut with an ellipsis. */
export const DIAGNOSTIC_MESSAGE_MAX_CHARS = 2000;
/** Raw diagnostics looked at per publish at most: a server's flood is not walked to its end. */
const RAW_MAX_PER_FILE = 5000;

/** LSP's wire shapes, only the fields read here (0-based positions, UTF-16 characters). */
export interface LspRawPosition {
  line: number;
  character: number;
}
export interface LspRawRange {
  start: LspRawPosition;
  end: LspRawPosition;
}
export interface LspRawDiagnostic {
  range: LspRawRange;
  severity?: number;
  message: string;
  source?: string;
  code?: string | number | { value: string | number };
}

/**
 * Decodes a `file:` URI the way the seed's normalizeUri does: progressive decodeURIComponent
 * (double encodings such as %2520), a per-escape fallback for mixed raw/encoded text, backslashes
 * to slashes. Returns an absolute '/'-separated path, or null for other schemes and garbage.
 */
export function decodeFileUri(uri: string): string | null {
  if (typeof uri !== 'string' || uri.length > 8192) return null;
  let s = uri;
  if (/^file:/i.test(s)) s = s.replace(/^file:(\/\/[^/]*)?/i, '');
  else if (/^[a-z][a-z0-9+.-]*:/i.test(s) && !/^[a-z]:[\\/]/i.test(s)) return null;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(s); i++) {
    try {
      s = decodeURIComponent(s);
    } catch {
      s = s.replace(/%[0-9a-f]{2}/gi, (m) => {
        try {
          return decodeURIComponent(m);
        } catch {
          return m;
        }
      });
    }
  }
  s = s.replace(/\\/g, '/');
  // "/c:/x" (a drive letter after the authority) keeps no leading slash on Windows-style paths.
  if (/^\/[a-z]:\//i.test(s)) s = s.slice(1);
  return s.includes('\0') ? null : s;
}

/**
 * A server's URI as a workspace-relative path, or null when it lies outside `root` (library typings,
 * the typeshed). Matching is exact first; case-insensitive only as a fallback (the seed lowercases
 * for servers that change a drive letter's case), keeping the file's own spelling after the root.
 */
export function normalizeUri(uri: string, root: string): string | null {
  const decoded = decodeFileUri(uri);
  if (!decoded || !decoded.startsWith('/')) return null;
  const abs = path.posix.normalize(decoded);
  for (const base of [root, WORKSPACE_ROOT]) {
    const b = base.replace(/\/+$/, '');
    if (abs.startsWith(b + '/')) return abs.slice(b.length + 1);
    if (abs.toLowerCase().startsWith(b.toLowerCase() + '/')) return abs.slice(b.length + 1);
  }
  return null;
}

/** The path's `file://` URI for a server (each segment percent-encoded). */
export function fileUri(abs: string): string {
  return 'file://' + abs.split('/').map(encodeURIComponent).join('/');
}

const isPos = (p: unknown): p is LspRawPosition =>
  !!p && Number.isInteger((p as LspRawPosition).line) && Number.isInteger((p as LspRawPosition).character) && (p as LspRawPosition).line >= 0 && (p as LspRawPosition).character >= 0;

/** A 0-based LSP range as the contract's 1-based one; null when invalid or inverted. */
export function toRange(r: unknown): TextRange | null {
  const range = r as LspRawRange | undefined;
  if (!range || !isPos(range.start) || !isPos(range.end)) return null;
  const { start, end } = range;
  if (end.line < start.line || (end.line === start.line && end.character < start.character)) return null;
  return { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

/** LSP DiagnosticSeverity (1 Error, 2 Warning, 3 Information, 4 Hint) to ours; null drops it. */
export function mapSeverity(severity: unknown): Diagnostic['severity'] | null {
  if (severity === undefined || severity === null || severity === 1) return 'error';
  if (severity === 2) return 'warning';
  return null;
}

function codeOf(code: LspRawDiagnostic['code']): string | undefined {
  const v = typeof code === 'object' && code !== null ? code.value : code;
  return typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, 100) : undefined;
}

/** One publish's diagnostics through the pipeline: filtered, capped, errors first. */
export function filterDiagnostics(raw: unknown): Diagnostic[] {
  if (!Array.isArray(raw)) return [];
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const d of raw.slice(0, RAW_MAX_PER_FILE) as LspRawDiagnostic[]) {
    if (!d || typeof d.message !== 'string') continue;
    const severity = mapSeverity(d.severity);
    const range = severity && toRange(d.range);
    if (!severity || !range) continue;
    const message = d.message.length > DIAGNOSTIC_MESSAGE_MAX_CHARS ? d.message.slice(0, DIAGNOSTIC_MESSAGE_MAX_CHARS - 1) + '…' : d.message;
    const out: Diagnostic = { ...range, severity, message };
    if (typeof d.source === 'string') out.source = d.source.slice(0, 100);
    const code = codeOf(d.code);
    if (code !== undefined) out.code = code;
    (severity === 'error' ? errors : warnings).push(out);
  }
  const byPos = (a: Diagnostic, b: Diagnostic) => a.startLine - b.startLine || a.startColumn - b.startColumn;
  return [...errors.sort(byPos), ...warnings.sort(byPos)].slice(0, DIAGNOSTICS_MAX_PER_FILE);
}
