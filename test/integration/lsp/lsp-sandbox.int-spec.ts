import type { FileDiagnostics } from '@h/contracts';
import type { DockerSandboxDriver, SandboxClient, SandboxRecord } from '@h/sandbox';
import type { LspDiagnosticsNotification } from '@h/sandbox-protocol';
import { cleanup, IMAGE_TIMEOUT_MS, makeDriver, spec, testPrefix, waitFor } from '../sandbox/sandbox-test-kit';

// sandboxd's language servers in a real container (the image's typescript-language-server and
// pyright): diagnostics of a TypeScript type error and a Python error, cleared by the fix, pushed
// as notifications, and completion / hover / definition inside the workspace.
const prefix = testPrefix();
let driver: DockerSandboxDriver;
let record: SandboxRecord;
let client: SandboxClient;
const pushed: LspDiagnosticsNotification[] = [];

const write = (path: string, content: string) => client.call('fs.write', { path, content });
const errorsOf = (files: FileDiagnostics[], path: string) => files.find((f) => f.path === path)?.diagnostics.filter((d) => d.severity === 'error') ?? [];

beforeAll(async () => {
  driver = await makeDriver(prefix);
  record = await driver.ensure(spec('lsp'));
  client = await driver.connect(record);
  client.on('lsp.diagnostics', (n: LspDiagnosticsNotification) => pushed.push(n));
  await write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src'] }));
  await write('src/math.ts', 'export function double(n: number): number {\n  return n * 2;\n}\n');
  await write('src/main.ts', "import { double } from './math';\nconst label: string = double(2);\nconsole.log(label);\n");
  await write('app/util.py', 'def greet(name: str) -> str:\n    return "hi " + name\n\nprint(greet(undefined_name))\n');
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
});

describe('sandboxd language servers', () => {
  it('reports a TypeScript type error and a Python error, 1-based, in workspace-relative paths', async () => {
    const r = await client.call('lsp.diagnostics', { paths: ['src/main.ts', '/workspace/app/util.py'], waitMs: 45_000 });
    expect(r.timedOut).toBe(false);
    const ts = errorsOf(r.files, 'src/main.ts');
    expect(ts).toEqual([expect.objectContaining({ startLine: 2, startColumn: 7, message: expect.stringContaining("not assignable to type 'string'"), source: 'typescript' })]);
    const py = errorsOf(r.files, 'app/util.py');
    expect(py).toEqual([expect.objectContaining({ startLine: 4, message: expect.stringContaining('undefined_name') })]);
    expect(r.servers).toEqual(expect.arrayContaining([
      { language: 'typescript', command: 'typescript-language-server', state: 'running' },
      { language: 'python', command: 'pyright-langserver', state: 'running' },
    ]));
    // Pushed to the connection too, as they were published.
    await waitFor(async () => pushed.some((n) => n.files.some((f) => f.path === 'src/main.ts' && f.diagnostics.length)), 10_000, 'pushed diagnostics');
  }, 90_000);

  it('answers hover, completion and definition at 1-based positions', async () => {
    const hover = await client.call('lsp.hover', { path: 'src/main.ts', line: 1, column: 11 });
    expect(hover?.contents).toContain('double(n: number): number');
    const def = await client.call('lsp.definition', { path: 'src/main.ts', line: 2, column: 23 });
    expect(def.locations).toEqual([expect.objectContaining({ path: 'src/math.ts', range: expect.objectContaining({ startLine: 1 }) })]);
    await client.call('lsp.sync', { path: 'src/main.ts', text: "import { double } from './math';\nconst label: string = double(2);\nconsole.log(label);\nlabel.toUpp" });
    const list = await client.call('lsp.completion', { path: 'src/main.ts', line: 4, column: 12 });
    expect(list.items.map((i) => i.label)).toContain('toUpperCase');
    await client.call('lsp.close', { path: 'src/main.ts' });
  }, 60_000);

  it('clears the problems once the files are fixed on disk (the agent or a terminal wrote them)', async () => {
    pushed.length = 0;
    await write('src/main.ts', "import { double } from './math';\nconst label: string = String(double(2));\nconsole.log(label);\n");
    await client.call('exec.run', { command: "printf 'def greet(name: str) -> str:\\n    return \"hi \" + name\\n\\nprint(greet(\"you\"))\\n' > app/util.py" });
    // The watcher re-syncs open files: the cleared diagnostics arrive without anyone asking.
    await waitFor(async () => pushed.some((n) => n.files.some((f) => f.path === 'app/util.py' && f.diagnostics.length === 0)), 30_000, 'python cleared by the watcher');
    const r = await client.call('lsp.diagnostics', { paths: ['src/main.ts', 'app/util.py'], waitMs: 30_000 });
    expect(errorsOf(r.files, 'src/main.ts')).toEqual([]);
    expect(errorsOf(r.files, 'app/util.py')).toEqual([]);
    const all = await client.call('lsp.diagnostics', {});
    expect(all.files.filter((f) => f.diagnostics.length)).toEqual([]);
  }, 60_000);

  it('serves no language for a file no installed server handles, and refuses paths outside the workspace', async () => {
    expect(await client.call('lsp.sync', { path: 'notes.txt', text: 'hello' })).toEqual({ language: null });
    await expect(client.call('lsp.sync', { path: '../etc/passwd.ts', text: 'x' })).rejects.toMatchObject({ data: { code: 'PATH_OUTSIDE_WORKSPACE' } });
  });
});
