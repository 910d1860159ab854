import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { GraphQuery } from '@h/contracts';
import { PathResolver } from '../path-resolver';
import { GRAPH_FIXTURE } from './graph-fixture';
import { GraphIndex } from './graph-query';
import { GraphService, snapshotBase } from './graph.service';
import { parseKg, serializeKg } from './kg-format';

const lines = (...l: string[]) => l.join('\n');

/** The fixture's answers, worked out by hand from GRAPH_FIXTURE. */
const EXPECTED: [GraphQuery, string, string][] = [
  ['exports', 'src/util/math.ts', lines('src/util/math.ts exports:', 'add:function', 'Calculator:default', 'Color:enum', 'Num:type', 'PI:const', 'Shape:interface')],
  // `export * from` passes on everything but the default; `export { a as b } from` and `export * as ns` add one name each.
  ['exports', 'src/util/index.ts', lines('src/util/index.ts exports:', 'add:function', 'Color:enum', 'Num:type', 'PI:const', 'Shape:interface', 'shout:function', 'strings:namespace')],
  ['exports', 'src/util/strings.ts', lines('src/util/strings.ts exports:', 'toLower:const', 'upper:function')],
  ['exports', 'src/polyfill.ts', 'src/polyfill.ts exports nothing'],
  // Module-level bindings only; _private is private by convention.
  ['exports', 'py/pkg/core.py', lines('py/pkg/core.py exports:', 'MAX:variable', 'run:function', 'Runner:class')],
  ['exports', 'py/pkg/models.py', lines('py/pkg/models.py exports:', 'Admin:class', 'ROLE:variable', 'User:class')],
  [
    'imports_of',
    'src/app.ts',
    lines(
      'src/app.ts imports:',
      '  readFileSync from node:fs [stdlib]',
      '  express from express [third-party]',
      '  * as path from path [stdlib]',
      '  Calculator from ./util/math',
      '  add from ./util/math',
      '  PI as pi from ./util/math',
      '  shout from ./util',
      '  Num from ./util',
      '  ./polyfill (whole module)',
      '  Shape from ./util/math',
      '  ./lazy (whole module)',
    ),
  ],
  ['imports_of', 'src/legacy.js', lines('src/legacy.js imports:', '  * as fs from fs [stdlib]', '  helper from ./helper')],
  [
    'imports_of',
    'py/pkg/core.py',
    lines(
      'py/pkg/core.py imports:',
      '  os from os [stdlib]',
      '  sys from sys [stdlib]',
      '  json as j from json [stdlib]',
      '  List from typing [stdlib]',
      '  Dict from typing [stdlib]',
      '  requests from requests [third-party]',
      '  User from .models',
      '  Admin from .models',
      '  helpers from .',
    ),
  ],
  ['imports_of', 'py/main.py', lines('py/main.py imports:', '  run from pkg', '  Runner from pkg.core', '  numpy as np from numpy [third-party]')],
  ['exporters_of', 'ADD', lines("Files exporting 'ADD':", 'src/util/index.ts → add:function', 'src/util/math.ts → add:function')],
  ['exporters_of', 'shout', lines("Files exporting 'shout':", 'src/util/index.ts → shout:function')],
  ['exporters_of', 'Runner', lines("Files exporting 'Runner':", 'py/pkg/core.py → Runner:class')],
  ['exporters_of', 'missing', "No file exports 'missing'"],
  ['dependents', 'src/util/math.ts', lines('src/util/math.ts is imported by:', 'src/app.ts', 'src/util/index.ts')],
  // app.ts imports `shout` from ./util, which re-exports strings.ts's `upper`.
  ['dependents', 'src/util/strings.ts', lines('src/util/strings.ts is imported by:', 'src/app.ts', 'src/util/index.ts')],
  // The dynamic import() and the side-effect import are file-level dependencies too.
  ['dependents', 'src/lazy.ts', lines('src/lazy.ts is imported by:', 'src/app.ts')],
  ['dependents', 'src/polyfill.ts', lines('src/polyfill.ts is imported by:', 'src/app.ts')],
  ['dependents', 'src/helper.js', lines('src/helper.js is imported by:', 'src/legacy.js')],
  ['dependents', 'src/app.ts', 'src/app.ts is imported by no file'],
  ['dependents', 'py/pkg/models.py', lines('py/pkg/models.py is imported by:', 'py/pkg/core.py')],
  // `from . import helpers` names a submodule.
  ['dependents', 'py/pkg/helpers.py', lines('py/pkg/helpers.py is imported by:', 'py/pkg/core.py')],
  ['dependents', 'py/pkg/core.py', lines('py/pkg/core.py is imported by:', 'py/main.py', 'py/pkg/__init__.py')],
  // express appears only in a comment and as a property name; Shape only in its import.
  ['unused_imports', 'src/app.ts', lines('src/app.ts unused imports:', '  express (from express)', '  Shape (from ./util/math)')],
  ['unused_imports', 'src/view.tsx', lines('src/view.tsx unused imports:', '  React (from react)')],
  ['unused_imports', 'src/legacy.js', lines('src/legacy.js unused imports:', '  fs (from fs)', '  helper (from ./helper)')],
  ['unused_imports', 'py/pkg/core.py', lines('py/pkg/core.py unused imports:', '  sys (from sys)', '  j (from json)', '  Dict (from typing)', '  requests (from requests)', '  Admin (from .models)')],
  // Mentions in a docstring and a comment are not uses.
  ['unused_imports', 'py/main.py', lines('py/main.py unused imports:', '  Runner (from pkg.core)', '  np (from numpy)')],
  // __all__ re-exports `run`.
  ['unused_imports', 'py/pkg/__init__.py', 'py/pkg/__init__.py has no unused imports'],
  ['exports', 'src/nope.ts', 'No file src/nope.ts in the graph'],
  ['exports', 'src/util', 'src/util is a directory, not a file'],
];

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
    await graph.settled();
    expect(await ask('exports', 'src/lazy.ts')).toBe(lines('src/lazy.ts exports:', 'later:const', 'load:function'));
    expect(await ask('dependents', 'src/util/math.ts')).toBe(lines('src/util/math.ts is imported by:', 'src/app.ts', 'src/lazy.ts', 'src/util/index.ts'));
    expect(await ask('exporters_of', 'VALUE')).toBe(lines("Files exporting 'VALUE':", 'src/extra/new.py → VALUE:variable'));
    expect(await ask('exports', 'src/polyfill.ts')).toBe('No file src/polyfill.ts in the graph');
    // The snapshot on disk says the same.
    const fromDisk = new GraphIndex(parseKg(readFileSync(`${graph.snapshotPath}.kg`, 'utf8')));
    expect(fromDisk.query('exports', 'src/lazy.ts')).toBe(lines('src/lazy.ts exports:', 'later:const', 'load:function'));
    expect(graph.status()).toMatchObject({ state: 'ready', files: 17 });
  });

  it('rescans everything when the watcher says it dropped changes', async () => {
    write('src/late.ts', 'export const late = 1;\n');
    graph.onChanges([], true);
    await graph.settled();
    expect(await ask('exports', 'src/late.ts')).toBe(lines('src/late.ts exports:', 'late:const'));
  });

  it('refuses an unknown query', async () => {
    await expect(graph.query({ query: 'callers' as GraphQuery })).rejects.toThrow(/query must be one of/);
  });
});
