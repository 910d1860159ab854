import { formatProblems, lspProblems, sanitizeFileDiagnostics } from './lsp-problems';

const d = (severity: 'error' | 'warning', line: number, message = 'm') => ({ startLine: line, startColumn: 3, endLine: line, endColumn: 5, severity, message });

describe('lspProblems', () => {
  it('lists path:line:col severity message, errors first, and counts everything', () => {
    const r = formatProblems([{ path: 'b.py', language: 'python', diagnostics: [d('warning', 2, 'unused'), d('error', 9, 'bad\n  thing')] }, { path: 'a.ts', language: 'typescript', diagnostics: [d('error', 1, 'type')] }], false);
    expect(r).toMatchObject({ source: 'lsp', errorCount: 2, warningCount: 1 });
    expect(r.text.split('\n')).toEqual(['2 errors, 1 warning from the language servers (2 files checked)', 'a.ts:1:3 error type', 'b.py:9:3 error bad thing', 'b.py:2:3 warning unused']);
  });

  it('bounds the listing but not the counts', () => {
    const many = Array.from({ length: 150 }, (_, i) => d('error', i + 1));
    const r = formatProblems([{ path: 'x.ts', language: 'typescript', diagnostics: many }], true);
    expect(r.errorCount).toBe(150);
    expect(r.text).toContain('… 50 more not shown');
    expect(r.text).toContain('still being checked');
  });

  it('asks about the touched files, adds what the same languages\' servers know, and is null when no server serves them', async () => {
    const calls: unknown[] = [];
    const call = async (p: { paths?: string[] }) => {
      calls.push(p);
      if (p.paths) return { files: p.paths.filter((x) => x.endsWith('.ts')).map((path) => ({ path, language: 'typescript', diagnostics: [] })), servers: [], timedOut: false };
      return { files: [{ path: 'dep.ts', language: 'typescript', diagnostics: [d('error', 4)] }, { path: 'other.py', language: 'python', diagnostics: [d('error', 1)] }], servers: [], timedOut: false };
    };
    const r = await lspProblems({ call, touched: async () => ['a.ts', 'a.ts', 'README.md'] });
    expect(calls[0]).toEqual({ paths: ['a.ts', 'README.md'], waitMs: expect.any(Number) });
    expect(r).toMatchObject({ errorCount: 1, text: expect.stringContaining('dep.ts:4:3 error') });
    expect(r?.text).not.toContain('other.py');
    expect(await lspProblems({ call, touched: async () => ['README.md'] })).toBeNull();
    // Silence is not "clean": a timed-out answer without errors goes to the build check.
    const late = async (p: { paths?: string[] }) => ({ ...(await call(p)), files: [], timedOut: !!p.paths });
    expect(await lspProblems({ call: async (p) => ({ ...(await late(p)), files: p.paths ? [{ path: 'a.ts', language: 'typescript', diagnostics: [] }] : [] }), touched: async () => ['a.ts'] })).toBeNull();
    expect(await lspProblems({ call, touched: async () => [] })).toBeNull();
  });

  it('drops what a sandbox should not send', () => {
    expect(sanitizeFileDiagnostics({ path: '../etc/x', language: 'ts', diagnostics: [] })).toBeNull();
    expect(sanitizeFileDiagnostics({ path: '/abs', language: 'ts', diagnostics: [] })).toBeNull();
    expect(sanitizeFileDiagnostics({ path: 'a.ts', language: 'ts', diagnostics: 'x' })).toBeNull();
    const f = sanitizeFileDiagnostics({ path: 'a.ts', language: 'ts', diagnostics: [d('error', 1), { ...d('error', 0) }, { ...d('error', 1), severity: 'info' }, { ...d('error', 1), message: 'x'.repeat(5000) }] });
    expect(f?.diagnostics).toHaveLength(2);
    expect(f?.diagnostics[1].message).toHaveLength(2000);
  });
});
