import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { GraphQuery } from '@h/contracts';
import { PathResolver } from '../path-resolver';
import { GRAPH_FIXTURE, GRAPH_FIXTURE_ANSWERS } from './graph-fixture';
import { GraphIndex } from './graph-query';
import { GraphService, snapshotBase } from './graph.service';
import { parseKg, serializeKg, visualizeKg } from './kg-format';

const lines = (...l: string[]) => l.join('\n');
const EXPECTED = GRAPH_FIXTURE_ANSWERS;

describe(GraphService.name, () => {
  let dir: string;
  let root: string;
  let graph: GraphService;

  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const ask = async (query: GraphQuery, arg?: string) => (await graph.query({ query, arg })).text;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'h-graph-'));
    root = path.join(dir, 'repo');
    for (const [rel, text] of Object.entries(GRAPH_FIXTURE)) write(rel, text);
    graph = new GraphService(new PathResolver(root), { snapshotsDir: path.join(dir, 'snapshots'), debounceMs: 5 });
    await graph.rebuild();
  });
  afterEach(() => {
    graph.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(EXPECTED)('%s %s', async (query, arg, want) => {
    expect(await ask(query, arg)).toBe(want);
  });

  it('answers the same from the .kg file it wrote as from memory', async () => {
    const kg = readFileSync(`${snapshotBase(path.join(dir, 'snapshots'), root)}.kg`, 'utf8');
    expect(kg.split('\n')[0]).toBe(`# Knowledge Graph v3 — ${root}`);
    const fromDisk = new GraphIndex(parseKg(kg));
    for (const [query, arg, want] of EXPECTED) expect(fromDisk.query(query, arg)).toBe(want);
    expect(serializeKg(parseKg(kg))).toBe(kg);
  });

  it('lists the structure without secrets, dependencies, media or lock files', async () => {
    const text = await ask('structure');
    expect(text.split('\n')[0]).toBe('Directory tree (25 entries):');
    expect(text).toContain('repo/.github/workflows/ci.yml');
    expect(text).toContain('repo/py/pkg/__init__.py');
    for (const gone of ['.env', 'node_modules', 'logo.png', 'package-lock.json']) expect(text).not.toContain(gone);
    expect(await ask('structure', 'src/util')).toBe(lines('Directory tree (4 entries):', 'repo/src/util', 'repo/src/util/index.ts', 'repo/src/util/math.ts', 'repo/src/util/strings.ts'));
  });

  it('writes the .txt tree with exports and imported symbols', () => {
    const txt = readFileSync(`${graph.snapshotPath}.txt`, 'utf8');
    expect(txt).toContain('    app.ts  (exports: main:function; → Calculator, add, PI, shout, Num, Shape)\n');
    expect(txt).toContain('      strings.ts  (exports: upper:function, toLower:const)\n');
    expect(txt.trimEnd().split('\n').slice(-3)).toEqual(['# 28 exports', '# 14 file-level imports', '# 13 symbol-level imports']);
  });

  it('folds a changed, a new and a deleted file in from watcher changes', async () => {
    write('src/lazy.ts', "import { add } from './util/math';\nexport function load() { return add(1, 2); }\nexport const later = 1;\n");
    write('src/extra/new.py', 'from ..pkg import nothing\nVALUE = 1\n');
    unlinkSync(path.join(root, 'src/polyfill.ts'));
    graph.onChanges([
      { path: 'src/lazy.ts', kind: 'changed' },
      { path: 'src/extra', kind: 'created' },
      { path: 'src/polyfill.ts', kind: 'deleted' },
    ]);
    expect(graph.status()).toMatchObject({ state: 'ready', updating: true });
    await graph.settled();
    expect(graph.status().updating).toBe(false);
    expect(await ask('exports', 'src/lazy.ts')).toBe(lines('src/lazy.ts exports:', 'later:const', 'load:function'));
    expect(await ask('dependents', 'src/util/math.ts')).toBe(lines('src/util/math.ts is imported by:', 'src/app.ts', 'src/lazy.ts', 'src/util/index.ts'));
    expect(await ask('exporters_of', 'VALUE')).toBe(lines("Files exporting 'VALUE':", 'src/extra/new.py → VALUE:variable'));
    expect(await ask('exports', 'src/polyfill.ts')).toBe('No file src/polyfill.ts in the graph');
    // The snapshot on disk says the same.
    const fromDisk = new GraphIndex(parseKg(readFileSync(`${graph.snapshotPath}.kg`, 'utf8')));
    expect(fromDisk.query('exports', 'src/lazy.ts')).toBe(lines('src/lazy.ts exports:', 'later:const', 'load:function'));
    expect(graph.status()).toMatchObject({ state: 'ready', files: 17 });
  });

  it('takes a change still in the debounce in before answering a fresh query', async () => {
    const slow = new GraphService(new PathResolver(root), { snapshotsDir: path.join(dir, 'snapshots'), debounceMs: 60_000, watcherDrained: async () => undefined });
    try {
      await slow.rebuild();
      write('src/lazy.ts', 'export function load() { return 1; }\nexport const soon = 2;\n');
      slow.onChanges([{ path: 'src/lazy.ts', kind: 'changed' }]);
      expect((await slow.query({ query: 'exports', arg: 'src/lazy.ts' })).text).toBe(lines('src/lazy.ts exports:', 'load:function', 'soon:const'));
    } finally {
      slow.close();
    }
  });

  it('writes the same snapshot pair as a fresh render after a body edit and after an export change', async () => {
    const onDisk = () => [readFileSync(`${graph.snapshotPath}.kg`, 'utf8'), readFileSync(`${graph.snapshotPath}.txt`, 'utf8')];
    const fresh = () => [serializeKg(graph.graph!), visualizeKg(graph.graph!)];
    // Same exports, one more import: the node and edge sections are reused, the imports are not.
    write('src/lazy.ts', "import { join } from 'node:path';\nexport function load() { return 2; }\n");
    await graph.update(['src/lazy.ts']);
    expect(onDisk()).toEqual(fresh());
    expect(onDisk()[0]).toContain('|node:path|stdlib||join|join\n');
    write('src/lazy.ts', 'export function load() { return 2; }\nexport class Later {}\n');
    await graph.update(['src/lazy.ts']);
    expect(onDisk()).toEqual(fresh());
    expect(onDisk()[1]).toContain('lazy.ts  (exports: load:function, Later:class)');
  });

  it('rescans everything when the watcher says it dropped changes', async () => {
    write('src/late.ts', 'export const late = 1;\n');
    graph.onChanges([], true);
    await graph.settled();
    expect(await ask('exports', 'src/late.ts')).toBe(lines('src/late.ts exports:', 'late:const'));
  });

  it('answers from the stored snapshot while a new daemon\'s first build runs', async () => {
    const again = new GraphService(new PathResolver(root), { snapshotsDir: path.join(dir, 'snapshots') });
    try {
      const early = await again.query({ query: 'exports', arg: 'src/util/strings.ts', fresh: false });
      expect(early.status.state).toBe('building');
      expect(early.text).toMatch(/^src\/util\/strings\.ts exports:\ntoLower:const\nupper:function\n\(from the snapshot of .+; the graph is being rebuilt\)$/);
      expect((await again.query({ query: 'exports', arg: 'src/util/strings.ts' })).text).toBe(lines('src/util/strings.ts exports:', 'toLower:const', 'upper:function'));
    } finally {
      again.close();
    }
  });

  it('refuses an unknown query', async () => {
    await expect(graph.query({ query: 'callers' as GraphQuery })).rejects.toThrow(/query must be one of/);
  });
});

describe('tsconfig path aliases', () => {
  it('resolves the root tsconfig\'s paths (through extends, comments allowed) to workspace files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'h-graph-alias-'));
    const root = path.join(dir, 'mono');
    const files: Record<string, string> = {
      'tsconfig.json': '{ "extends": "./tsconfig.base.json", "include": ["apps", "libs"] }\n',
      'tsconfig.base.json': '{\n  // the aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["libs/*/src"], "@cfg": ["libs/config/src/env.ts"] } }\n}\n',
      'libs/math/src/index.ts': 'export function sum(a: number, b: number) { return a + b; }\n',
      'libs/config/src/env.ts': 'export const env = {};\n',
      'apps/api/main.ts': "import { sum } from '@lib/math';\nimport { env } from '@cfg';\nimport { z } from '@other/pkg';\nconsole.log(sum(1, 2), env, z);\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    const graph = new GraphService(new PathResolver(root), { snapshotsDir: path.join(dir, 'snapshots') });
    try {
      await graph.rebuild();
      expect((await graph.query({ query: 'imports_of', arg: 'apps/api/main.ts' })).text).toBe(
        ['apps/api/main.ts imports:', '  sum from @lib/math', '  env from @cfg', '  z from @other/pkg [third-party]'].join('\n'),
      );
      expect((await graph.query({ query: 'dependents', arg: 'libs/math/src/index.ts' })).text).toBe('libs/math/src/index.ts is imported by:\napps/api/main.ts');
      expect((await graph.query({ query: 'dependents', arg: 'libs/config/src/env.ts' })).text).toBe('libs/config/src/env.ts is imported by:\napps/api/main.ts');
    } finally {
      graph.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
