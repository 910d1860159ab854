// read_problems from the language servers (sandboxd's `lsp.diagnostics`): the files the run touched
// are opened from disk and waited for, the other files those servers already know (open in an
// editor, or dependents a server re-checked) are added, and the result is a bounded ProblemReport.
// Null when no language server serves any of those files: read_problems then runs the build check.
import { DIAGNOSTICS_MAX_PER_FILE, type Diagnostic, type FileDiagnostics } from '@h/contracts';
import type { LspDiagnosticsParams, LspDiagnosticsResult } from '@h/sandbox-protocol';
import type { ProblemReport } from './tool.types';

/**
 * How long read_problems waits for the servers to settle the touched files: a first start (pyright's
 * index, tsserver's project load) on a loaded machine takes tens of seconds. sandboxd's cap.
 */
export const LSP_PROBLEMS_WAIT_MS = 60_000;
/** Touched files asked about at most (sandboxd's own cap is LSP_MAX_PATHS = 200). */
const MAX_PATHS = 200;
/** Files a sandbox may report in one answer that are looked at. */
const MAX_FILES = 2000;
/** Lines of the report at most; the counts still cover everything. */
const MAX_LINES = 100;
const MAX_MESSAGE_CHARS = 500;

const isInt = (v: unknown, min = 1): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) < 1e9;

/** What a sandbox sent, checked field by field: FileDiagnostics of bounded size, or null. */
export function sanitizeFileDiagnostics(raw: unknown): FileDiagnostics | null {
  const f = raw as Partial<FileDiagnostics> | null;
  if (!f || typeof f.path !== 'string' || !f.path || f.path.length > 4096 || f.path.startsWith('/') || f.path.split('/').includes('..')) return null;
  if (typeof f.language !== 'string' || f.language.length > 40 || !Array.isArray(f.diagnostics)) return null;
  const diagnostics: Diagnostic[] = [];
  for (const d of f.diagnostics.slice(0, DIAGNOSTICS_MAX_PER_FILE) as Partial<Diagnostic>[]) {
    if (!d || (d.severity !== 'error' && d.severity !== 'warning') || typeof d.message !== 'string') continue;
    if (!isInt(d.startLine) || !isInt(d.startColumn) || !isInt(d.endLine) || !isInt(d.endColumn)) continue;
    const out: Diagnostic = { startLine: d.startLine, startColumn: d.startColumn, endLine: d.endLine, endColumn: d.endColumn, severity: d.severity, message: d.message.slice(0, 2000) };
    if (typeof d.source === 'string') out.source = d.source.slice(0, 100);
    if (typeof d.code === 'string') out.code = d.code.slice(0, 100);
    diagnostics.push(out);
  }
  return { path: f.path, language: f.language, diagnostics };
}

export interface LspProblemsSource {
  /** `lsp.diagnostics` in the workspace's sandbox. */
  call: (params: LspDiagnosticsParams) => Promise<LspDiagnosticsResult>;
  /** Workspace-relative paths the run changed so far (write tools, and the work tree's changes). */
  touched: () => Promise<string[]>;
}

/** The report read_problems returns, or null when no language server serves the touched files. */
export async function lspProblems(source: LspProblemsSource, waitMs = LSP_PROBLEMS_WAIT_MS): Promise<ProblemReport | null> {
  const paths = [...new Set(await source.touched())].slice(0, MAX_PATHS);
  if (!paths.length) return null;
  const asked = await source.call({ paths, waitMs });
  const served = (Array.isArray(asked?.files) ? asked.files : []).slice(0, MAX_FILES).map(sanitizeFileDiagnostics).filter((f): f is FileDiagnostics => !!f);
  if (!served.length) return null;
  // Dependents: whatever else those languages' servers hold diagnostics for now.
  const languages = new Set(served.map((f) => f.language));
  const all = await source.call({});
  const byPath = new Map(served.map((f) => [f.path, f]));
  for (const raw of (Array.isArray(all?.files) ? all.files : []).slice(0, MAX_FILES)) {
    const f = sanitizeFileDiagnostics(raw);
    if (f && languages.has(f.language) && !byPath.has(f.path)) byPath.set(f.path, f);
  }
  const report = formatProblems([...byPath.values()], !!asked.timedOut);
  // Servers that did not answer in time have not said "clean": the build check decides instead,
  // so the problem lock never lets task_complete through on silence.
  if (asked.timedOut && report.errorCount === 0) return null;
  return report;
}

export function formatProblems(files: FileDiagnostics[], timedOut: boolean): ProblemReport {
  let errorCount = 0;
  let warningCount = 0;
  const lines: string[] = [];
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const severity of ['error', 'warning'] as const) {
    for (const f of sorted) {
      for (const d of f.diagnostics) {
        if (d.severity !== severity) continue;
        if (severity === 'error') errorCount++;
        else warningCount++;
        if (lines.length < MAX_LINES) {
          const code = d.code ? ` [${d.code}]` : '';
          lines.push(`${f.path}:${d.startLine}:${d.startColumn} ${severity} ${d.message.replace(/\s+/g, ' ').slice(0, MAX_MESSAGE_CHARS)}${code}`);
        }
      }
    }
  }
  const total = errorCount + warningCount;
  const head = `${errorCount} error${errorCount === 1 ? '' : 's'}, ${warningCount} warning${warningCount === 1 ? '' : 's'} from the language servers (${files.length} file${files.length === 1 ? '' : 's'} checked)`;
  const more = total > lines.length ? [`… ${total - lines.length} more not shown`] : [];
  const late = timedOut ? ['(some files were still being checked; run read_problems again for their result)'] : [];
  return { errorCount, warningCount, source: 'lsp', text: [head, ...lines, ...more, ...late].join('\n') };
}
