import type { Diagnostic, DiagnosticsSnapshot, FileDiagnostics } from '@h/contracts';
import {
  completionKindName,
  diagnosticsReducer,
  initialDiagnostics,
  markersOf,
  problemCounts,
  problemGroups,
  servedLanguages,
  typescriptServed,
  workspacePathOf,
  type DiagnosticsState,
} from './diagnostics-state';

const diag = (severity: Diagnostic['severity'], line: number, column = 1, message = `${severity} at ${line}`): Diagnostic => ({
  severity,
  message,
  source: 'typescript',
  startLine: line,
  startColumn: column,
  endLine: line,
  endColumn: column + 3,
});
const file = (path: string, ...diagnostics: Diagnostic[]): FileDiagnostics => ({ path, language: path.endsWith('.py') ? 'python' : 'typescript', diagnostics });
const snapshot = (files: FileDiagnostics[], servers: DiagnosticsSnapshot['servers'] = []): DiagnosticsSnapshot => ({ workspaceId: 'w1', files, servers });
const withSnapshot = (files: FileDiagnostics[], servers: DiagnosticsSnapshot['servers'] = []) =>
  diagnosticsReducer(initialDiagnostics, { type: 'snapshot', snapshot: snapshot(files, servers) });

describe('diagnostics-state', () => {
  it('should keep only files with problems from a snapshot and be live', () => {
    const state = withSnapshot([file('a.ts', diag('error', 2)), file('b.ts')]);
    expect(Object.keys(state.files)).toEqual(['a.ts']);
    expect(state.connection).toBe('live');
  });

  it('should replace a file on change, not merge its diagnostics, and drop it when its list comes empty', () => {
    let state = withSnapshot([file('a.ts', diag('error', 2), diag('warning', 5)), file('b.py', diag('error', 1))]);
    state = diagnosticsReducer(state, { type: 'changed', event: { workspaceId: 'w1', files: [file('a.ts', diag('warning', 7))] } });
    expect(state.files['a.ts']?.diagnostics.map((d) => d.startLine)).toEqual([7]);
    expect(state.files['b.py']).toBeDefined();
    state = diagnosticsReducer(state, { type: 'changed', event: { workspaceId: 'w1', files: [file('b.py')] } });
    expect(Object.keys(state.files)).toEqual(['a.ts']);
  });

  it('should drop everything on a reset before taking the files it carries', () => {
    let state = withSnapshot([file('a.ts', diag('error', 2)), file('b.py', diag('error', 1))]);
    state = diagnosticsReducer(state, { type: 'changed', event: { workspaceId: 'w1', files: [file('c.ts', diag('error', 3))], reset: true } });
    expect(Object.keys(state.files)).toEqual(['c.ts']);
  });

  it('should replace whatever it showed with a later snapshot (after a reconnect)', () => {
    let state = withSnapshot([file('a.ts', diag('error', 2))]);
    state = diagnosticsReducer(state, { type: 'connection', connection: 'reconnecting' });
    expect(state.connection).toBe('reconnecting');
    state = diagnosticsReducer(state, { type: 'snapshot', snapshot: snapshot([file('b.ts', diag('warning', 1))]) });
    expect(Object.keys(state.files)).toEqual(['b.ts']);
    expect(state.connection).toBe('live');
  });

  it('should count errors and warnings over all files', () => {
    const state = withSnapshot([file('a.ts', diag('error', 2), diag('warning', 5)), file('b.py', diag('error', 1))]);
    expect(problemCounts(state)).toEqual({ errors: 2, warnings: 1 });
    expect(problemCounts(initialDiagnostics)).toEqual({ errors: 0, warnings: 0 });
  });

  it('should group by path with errors first, then by position', () => {
    const state = withSnapshot([file('src/z.ts', diag('warning', 1), diag('error', 9, 4), diag('error', 9, 2), diag('error', 3)), file('app.py', diag('error', 1))]);
    const groups = problemGroups(state);
    expect(groups.map((g) => g.path)).toEqual(['app.py', 'src/z.ts']);
    expect(groups[1]?.diagnostics.map((d) => `${d.severity}:${d.startLine}:${d.startColumn}`)).toEqual(['error:3:1', 'error:9:2', 'error:9:4', 'warning:1:1']);
    expect(groups[1]).toMatchObject({ errors: 3, warnings: 1, language: 'typescript' });
  });

  it('should turn diagnostics into Monaco markers with their ranges unchanged', () => {
    const markers = markersOf(file('a.ts', { ...diag('error', 2, 5), code: '2322', endLine: 3, endColumn: 1 }, diag('warning', 4)), { Error: 8, Warning: 4 });
    expect(markers[0]).toEqual({ severity: 8, message: 'error at 2', source: 'typescript', code: '2322', startLineNumber: 2, startColumn: 5, endLineNumber: 3, endColumn: 1 });
    expect(markers[1]?.severity).toBe(4);
    expect(markersOf(undefined, { Error: 8, Warning: 4 })).toEqual([]);
  });

  it('should serve TS, JS and Python by default, plus running servers, minus languages answered as unserved', () => {
    const state: DiagnosticsState = withSnapshot([], [
      { language: 'rust', command: 'rust-analyzer', state: 'running' },
      { language: 'go', command: 'gopls', state: 'failed' },
    ]);
    expect(servedLanguages(state, new Set(['javascript'])).sort()).toEqual(['python', 'rust', 'typescript']);
  });

  it('should say the TypeScript server serves when the snapshot lists it running or a sync answered typescript', () => {
    expect(typescriptServed(initialDiagnostics, new Set())).toBe(false);
    expect(typescriptServed(initialDiagnostics, new Set(['typescript']))).toBe(true);
    expect(typescriptServed(withSnapshot([], [{ language: 'typescript', command: 'typescript-language-server', state: 'starting' }]), new Set())).toBe(true);
    expect(typescriptServed(withSnapshot([], [{ language: 'typescript', command: 'typescript-language-server', state: 'failed' }]), new Set())).toBe(false);
  });

  it('should map model URIs to workspace paths and LSP completion kinds to names', () => {
    expect(workspacePathOf('/workspace/src/a b.ts')).toBe('src/a b.ts');
    expect(workspacePathOf('/inmemory/model/1')).toBeNull();
    expect(completionKindName(3)).toBe('Function');
    expect(completionKindName(25)).toBe('TypeParameter');
    expect(completionKindName(undefined)).toBe('Text');
    expect(completionKindName(99)).toBe('Text');
  });
});
