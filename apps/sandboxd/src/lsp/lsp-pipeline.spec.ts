import { DIAGNOSTICS_MAX_PER_FILE } from '@h/contracts';
import { decodeFileUri, DIAGNOSTIC_MESSAGE_MAX_CHARS, filterDiagnostics, mapSeverity, normalizeUri, toRange } from './lsp-pipeline';

const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });
const diag = (severity: number | undefined, line = 0, message = 'm') => ({ range: range(line, 0, line, 3), severity, message });

describe('diagnostics pipeline', () => {
  it('keeps errors and warnings only and maps an undefined severity to error', () => {
    expect(mapSeverity(undefined)).toBe('error');
    expect(mapSeverity(1)).toBe('error');
    expect(mapSeverity(2)).toBe('warning');
    expect(mapSeverity(3)).toBeNull();
    expect(mapSeverity(4)).toBeNull();
    const out = filterDiagnostics([diag(3), diag(4), diag(undefined, 1, 'no severity'), diag(2, 0, 'warn')]);
    expect(out.map((d) => [d.severity, d.message])).toEqual([['error', 'no severity'], ['warning', 'warn']]);
  });

  it('turns 0-based ranges into 1-based ones and drops negative, inverted or malformed ranges', () => {
    expect(toRange(range(0, 4, 2, 1))).toEqual({ startLine: 1, startColumn: 5, endLine: 3, endColumn: 2 });
    expect(toRange(range(0, 0, 0, 0))).toEqual({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
    expect(toRange(range(-1, 0, 0, 0))).toBeNull();
    expect(toRange(range(0, -2, 0, 0))).toBeNull();
    expect(toRange(range(3, 0, 2, 0))).toBeNull();
    expect(toRange(range(1, 5, 1, 4))).toBeNull();
    expect(toRange({ start: { line: 1.5, character: 0 }, end: { line: 2, character: 0 } })).toBeNull();
    expect(toRange(undefined)).toBeNull();
    const out = filterDiagnostics([{ range: range(3, 0, 2, 0), severity: 1, message: 'inverted' }, { severity: 1, message: 'no range' }, diag(1)]);
    expect(out).toHaveLength(1);
  });

  it('caps a file at DIAGNOSTICS_MAX_PER_FILE with errors first, and long messages', () => {
    const raw = [...Array.from({ length: 150 }, (_, i) => diag(2, i, 'w')), ...Array.from({ length: 150 }, (_, i) => diag(1, i, 'e'))];
    const out = filterDiagnostics(raw);
    expect(out).toHaveLength(DIAGNOSTICS_MAX_PER_FILE);
    expect(out.slice(0, 150).every((d) => d.severity === 'error')).toBe(true);
    expect(out.filter((d) => d.severity === 'warning')).toHaveLength(50);
    const long = filterDiagnostics([diag(1, 0, 'x'.repeat(10_000))]);
    expect(long[0].message.length).toBe(DIAGNOSTIC_MESSAGE_MAX_CHARS);
    expect(filterDiagnostics('nonsense')).toEqual([]);
    expect(filterDiagnostics([null, { range: range(0, 0, 0, 1), message: 42 }])).toEqual([]);
  });

  it('keeps source and a string code', () => {
    const [d] = filterDiagnostics([{ range: range(0, 0, 0, 1), severity: 1, message: 'm', source: 'ts', code: 2322 }]);
    expect(d).toMatchObject({ source: 'ts', code: '2322' });
    const [p] = filterDiagnostics([{ range: range(0, 0, 0, 1), severity: 1, message: 'm', code: { value: 'reportX' } }]);
    expect(p.code).toBe('reportX');
  });
});

describe('normalizeUri', () => {
  const root = '/srv/ws';
  it('maps the workspace root and /workspace to relative paths', () => {
    expect(normalizeUri('file:///srv/ws/src/a.ts', root)).toBe('src/a.ts');
    expect(normalizeUri('file:///workspace/src/a.ts', root)).toBe('src/a.ts');
  });
  it('decodes single, double and mixed encodings and backslashes', () => {
    expect(normalizeUri('file:///srv/ws/my%20dir/a.py', root)).toBe('my dir/a.py');
    expect(normalizeUri('file:///srv/ws/my%2520dir/a.py', root)).toBe('my dir/a.py');
    expect(normalizeUri('file:///srv/ws/100%/a%20b.py', root)).toBe('100%/a b.py');
    expect(normalizeUri('file:///srv/ws%5Csrc%5Ca.py', root)).toBe('src/a.py');
    expect(decodeFileUri('file:///c%3A/x/y.py')).toBe('c:/x/y.py');
  });
  it('matches the root case-insensitively as a fallback, keeping the file part as written', () => {
    expect(normalizeUri('file:///SRV/WS/Src/A.ts', root)).toBe('Src/A.ts');
  });
  it('drops files outside the workspace, escapes by .. and other schemes', () => {
    expect(normalizeUri('file:///usr/lib/node_modules/typescript/lib/lib.d.ts', root)).toBeNull();
    expect(normalizeUri('file:///srv/ws/../etc/passwd', root)).toBeNull();
    expect(normalizeUri('file:///srv/wsother/a.ts', root)).toBeNull();
    expect(normalizeUri('untitled:Untitled-1', root)).toBeNull();
    expect(normalizeUri('file:///srv/ws/a%00b', root)).toBeNull();
  });
});
