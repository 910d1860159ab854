// What the IDE knows about a workspace's diagnostics: the language servers' problems per file, as
// the api pushes them (libs/contracts diagnostics.ts). Pure, so the rules (replace per file, a reset
// drops everything, the counts, the panel's order) are unit-tested without a socket or Monaco.
import type { Diagnostic, DiagnosticsChangedEvent, DiagnosticsSnapshot, FileDiagnostics, LspServerStatus } from '@h/contracts';

export type DiagnosticsConnection = 'connecting' | 'live' | 'reconnecting' | 'failed';

export interface DiagnosticsState {
  /** Only files that have problems; a file whose list came empty is removed. */
  files: Readonly<Record<string, FileDiagnostics>>;
  servers: LspServerStatus[];
  connection: DiagnosticsConnection;
  error: string | null;
}

export type DiagnosticsAction =
  | { type: 'snapshot'; snapshot: DiagnosticsSnapshot }
  | { type: 'changed'; event: DiagnosticsChangedEvent }
  | { type: 'connection'; connection: DiagnosticsConnection; error?: string | null };

export const initialDiagnostics: DiagnosticsState = { files: {}, servers: [], connection: 'connecting', error: null };

function withFiles(base: Readonly<Record<string, FileDiagnostics>>, files: FileDiagnostics[]): Record<string, FileDiagnostics> {
  const next = { ...base };
  for (const file of files) {
    if (file.diagnostics.length) next[file.path] = file;
    else delete next[file.path];
  }
  return next;
}

export function diagnosticsReducer(state: DiagnosticsState, action: DiagnosticsAction): DiagnosticsState {
  switch (action.type) {
    case 'snapshot':
      // Everything known now: what we had before (possibly missed changes) is replaced whole.
      return { ...state, files: withFiles({}, action.snapshot.files), servers: action.snapshot.servers, connection: 'live', error: null };
    case 'changed':
      // A reset says the cache was cleared: drop all we show (the store refetches a snapshot).
      return { ...state, files: withFiles(action.event.reset ? {} : state.files, action.event.files) };
    case 'connection':
      return { ...state, connection: action.connection, error: action.error ?? null };
  }
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
}

export function problemCounts(state: DiagnosticsState): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  for (const file of Object.values(state.files)) {
    for (const d of file.diagnostics) {
      if (d.severity === 'error') errors += 1;
      else warnings += 1;
    }
  }
  return { errors, warnings };
}

export interface ProblemGroup extends ProblemCounts {
  path: string;
  language: string;
  /** Errors first, then by position (as VS Code's Problems view orders them). */
  diagnostics: Diagnostic[];
}

const byPosition = (a: Diagnostic, b: Diagnostic) =>
  (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) || a.startLine - b.startLine || a.startColumn - b.startColumn;

/** The Problems panel's groups: one per file with problems, by path. */
export function problemGroups(state: DiagnosticsState): ProblemGroup[] {
  return Object.values(state.files)
    .map((file) => {
      const errors = file.diagnostics.filter((d) => d.severity === 'error').length;
      return { path: file.path, language: file.language, errors, warnings: file.diagnostics.length - errors, diagnostics: [...file.diagnostics].sort(byPosition) };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The fields of Monaco's IMarkerData we fill (severity: Monaco's MarkerSeverity value). */
export interface MarkerData {
  severity: number;
  message: string;
  source?: string;
  code?: string;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** Markers for one file; the contract's ranges are 1-based and end-exclusive like Monaco's. */
export function markersOf(file: FileDiagnostics | undefined, severity: { Error: number; Warning: number }): MarkerData[] {
  return (file?.diagnostics ?? []).map((d) => ({
    severity: d.severity === 'error' ? severity.Error : severity.Warning,
    message: d.message,
    source: d.source,
    code: d.code,
    startLineNumber: d.startLine,
    startColumn: d.startColumn,
    endLineNumber: d.endLine,
    endColumn: d.endColumn,
  }));
}

// Monaco's language ids the language servers are known to serve before any server is listed
// (servers start on demand, on the first sync). A server the snapshot lists under a language that
// is also a Monaco id is added; a sync answered `language: null` turns a language off.
const DEFAULT_SERVED = ['typescript', 'javascript', 'python'];

/** The Monaco languages whose buffers go to `lsp.sync` and get the LSP's providers. */
export function servedLanguages(state: DiagnosticsState, unserved: ReadonlySet<string>): string[] {
  const all = new Set([...DEFAULT_SERVED, ...state.servers.filter((s) => s.state !== 'failed' && s.state !== 'stopped').map((s) => s.language)]);
  return [...all].filter((l) => !unserved.has(l));
}

/**
 * Whether the TypeScript server runs (or starts) for the workspace: the IDE then turns off Monaco's
 * own TS/JS diagnostics and suggestions, so one error is not marked twice.
 */
export function typescriptServed(state: DiagnosticsState, answered: ReadonlySet<string>): boolean {
  return answered.has('typescript') || state.servers.some((s) => s.language === 'typescript' && (s.state === 'running' || s.state === 'starting'));
}

/** The workspace path of a Monaco model URI (`file:///workspace/a/b.ts`), or null for other models. */
export function workspacePathOf(uriPath: string): string | null {
  const prefix = '/workspace/';
  if (!uriPath.startsWith(prefix)) return null;
  return uriPath.slice(prefix.length);
}

/** LSP CompletionItemKind (1-based) → its name, which Monaco's CompletionItemKind also uses. */
export const LSP_COMPLETION_KINDS = [
  'Text', 'Method', 'Function', 'Constructor', 'Field', 'Variable', 'Class', 'Interface', 'Module', 'Property', 'Unit', 'Value', 'Enum',
  'Keyword', 'Snippet', 'Color', 'File', 'Reference', 'Folder', 'EnumMember', 'Constant', 'Struct', 'Event', 'Operator', 'TypeParameter',
] as const;

export function completionKindName(kind: number | undefined): (typeof LSP_COMPLETION_KINDS)[number] {
  return (kind && LSP_COMPLETION_KINDS[kind - 1]) || 'Text';
}
