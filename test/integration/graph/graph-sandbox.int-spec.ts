import { readGraphTool } from '@h/tools';
import { SandboxGraphHost, type DockerSandboxDriver, type SandboxClient, type SandboxRecord } from '@h/sandbox';
import type { ToolContext } from '@h/tools';
import { GRAPH_FIXTURE, GRAPH_FIXTURE_ANSWERS } from '../../../apps/sandboxd/src/graph/graph-fixture';
import { cleanup, IMAGE_TIMEOUT_MS, makeDriver, spec, testPrefix, waitFor } from '../sandbox/sandbox-test-kit';

// The knowledge graph in a real sandbox: sandboxd builds it on start, folds in the fixture
// repository's files as they are written (its watcher), and read_graph, through the worker's
// SandboxGraphHost, answers the six queries as known in advance; a later change and a deletion
// show up without anyone asking for a rebuild; the seed's .kg/.txt pair is in ~/.h/snapshots.
const prefix = testPrefix();
let driver: DockerSandboxDriver;
let record: SandboxRecord;
let client: SandboxClient;
let ctx: ToolContext;

const ask = async (query: string, target?: string) => (await readGraphTool.execute(readGraphTool.input.parse({ query, target }), ctx)).text;

beforeAll(async () => {
  driver = await makeDriver(prefix);
  record = await driver.ensure(spec('graph'));
  client = await driver.connect(record);
  ctx = { graph: new SandboxGraphHost(async () => client) } as unknown as ToolContext;
  for (const [path, content] of Object.entries(GRAPH_FIXTURE)) await client.call('fs.write', { path, content });
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
});

describe('knowledge graph in the sandbox', () => {
  it('takes in the written files and answers the six queries as known in advance', async () => {
    // 17 files: the fixture's 22 without .env, the lock file, the png and node_modules' one.
    await waitFor(async () => {
      const s = await client.call('graph.status', {});
      return s.state === 'ready' && s.files === 17 && s.symbols === 28;
    }, 30_000, 'the fixture in the graph');
    for (const [query, arg, want] of GRAPH_FIXTURE_ANSWERS) expect(`${query} ${arg}\n${await ask(query, arg)}`).toBe(`${query} ${arg}\n${want}`);
    const tree = await ask('structure');
    expect(tree.split('\n')[0]).toBe('Directory tree (25 entries):');
    expect(tree).toContain('workspace/src/util/index.ts');
  }, 90_000);

  it('keeps the .kg v3 file and its .txt in the sandbox user\'s ~/.h/snapshots', async () => {
    const r = await client.call('exec.run', { command: 'head -n 2 ~/.h/snapshots/file-tree-snapshot-*.kg; grep -c "app.ts  (exports: main:function" ~/.h/snapshots/file-tree-snapshot-*.txt' });
    expect(r.exitCode).toBe(0);
    const [title, counts, txt] = r.stdout.trim().split('\n');
    expect(title).toBe('# Knowledge Graph v3 — /workspace');
    expect(counts).toMatch(/^# Nodes: \d+ {2}Edges: \d+ {2}Imports: 26$/);
    expect(txt).toBe('1');
  });

  it('updates after a file changes and after one is deleted', async () => {
    await client.call('fs.write', { path: 'src/lazy.ts', content: "import { upper } from './util/strings';\nexport function load() { return upper('a'); }\nexport const later = 1;\n" });
    await waitFor(async () => (await ask('exports', 'src/lazy.ts')) === 'src/lazy.ts exports:\nlater:const\nload:function', 20_000, 'the new export');
    expect(await ask('dependents', 'src/util/strings.ts')).toBe('src/util/strings.ts is imported by:\nsrc/app.ts\nsrc/lazy.ts\nsrc/util/index.ts');
    await client.call('fs.delete', { path: 'src/view.tsx' });
    await waitFor(async () => (await ask('dependents', 'src/button.tsx')) === 'src/button.tsx is imported by no file', 20_000, 'the deletion');
    expect(await ask('exporters_of', 'View')).toBe("No file exports 'View'");
    expect(await client.call('graph.status', {})).toMatchObject({ state: 'ready', files: 16 });
  }, 60_000);
});
