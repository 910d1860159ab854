// Knowledge-graph build and update (issue 14 point 5): generates a 2,000-file TypeScript + Python
// repository in a temp dir (1,400 .ts files of ~80 lines importing each other, with barrel
// re-exports; 600 .py modules with stdlib, third-party and relative imports), then times
// sandboxd's GraphService: the full build (walk, parse every file, assemble, write .kg + .txt)
// and the update after one file change (re-parse that file, re-assemble, write the .kg and, when
// the tree or its edges changed, the .txt), for an edit inside a body and for one adding an export.
// Targets: full build ≤ 5 s; update ≤ 200 ms. Not run in CI.
//   node bench/engine/run.mjs bench/graph/graph.bench.ts
//   BENCH_GRAPH_FILES=5000 BENCH_GRAPH_UPDATES=50 node bench/engine/run.mjs bench/graph/graph.bench.ts
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GraphService } from '../../apps/sandboxd/src/graph/graph.service';
import { PathResolver } from '../../apps/sandboxd/src/path-resolver';

const TARGET_BUILD_MS = 5000;
const TARGET_UPDATE_MS = 200;
const FILES = Number(process.env.BENCH_GRAPH_FILES ?? 2000);
const UPDATES = Number(process.env.BENCH_GRAPH_UPDATES ?? 20);
const BUILDS = 3;
const TS_SHARE = 0.7;
const PER_DIR = 20;

function tsFile(i: number, tsCount: number): string {
  const dep = (k: number) => (i + k) % tsCount;
  const rel = (k: number) => `../d${Math.floor(dep(k) / PER_DIR)}/m${dep(k)}`;
  const out = [
    "import { readFileSync } from 'node:fs';",
    "import * as path from 'path';",
    "import { z } from 'zod';",
    `import { fn${dep(1)}, Type${dep(1)} } from '${rel(1)}';`,
    `import { fn${dep(7)} as other } from '${rel(7)}';`,
    `import Default${dep(13)} from '${rel(13)}';`,
    '',
    `export interface Type${i} { id: number; name: string; tags: string[] }`,
    `export type Alias${i} = Type${i} | null;`,
    `export enum Kind${i} { A, B, C }`,
    `export const schema${i} = z.object({ id: z.number() });`,
    '',
    `export function fn${i}(input: Type${dep(1)}): number {`,
    '  let total = 0;',
    '  for (const t of input.tags) total += t.length;',
    `  return total + fn${dep(1)}(input) + other(input as never);`,
    '}',
    '',
    `export default class Default${i} {`,
    '  private readonly items = new Map<string, number>();',
  ];
  for (let m = 0; m < 12; m++) {
    out.push(`  method${m}(key: string, value: number): number {`, '    const prev = this.items.get(key) ?? 0;', `    this.items.set(key, prev + value * ${m});`, `    return path.join(key, String(prev)).length + readFileSync.length;`, '  }');
  }
  out.push('}', '', `export async function lazy${i}() {`, `  const mod = await import('${rel(3)}');`, `  return mod.fn${dep(3)};`, '}', '');
  return out.join('\n');
}

function pyFile(i: number, pyCount: number): string {
  const dep = (i + 1) % pyCount;
  const out = [
    'import os',
    'import json as j',
    'from typing import List, Optional',
    'import requests',
    `from .p${dep} import func_${dep}, Model${dep}`,
    '',
    `CONSTANT_${i} = ${i}`,
    '',
    '',
    `class Model${i}:`,
    `    """Model ${i}; uses os and j."""`,
    '',
    '    def __init__(self, name: Optional[str] = None):',
    '        self.name = name or os.getcwd()',
    '',
  ];
  for (let m = 0; m < 10; m++) out.push(`    def method_${m}(self, items: List[int]) -> int:`, `        return sum(items) + ${m} + func_${dep}()`, '');
  out.push('', `def func_${i}() -> int:`, `    return CONSTANT_${i} + len(j.dumps({}))`, '');
  return out.join('\n');
}

function generate(root: string): { tsCount: number; changed: string } {
  const tsCount = Math.round(FILES * TS_SHARE);
  const pyCount = FILES - tsCount;
  for (let i = 0; i < tsCount; i++) {
    const dir = path.join(root, 'src', `d${Math.floor(i / PER_DIR)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `m${i}.ts`), tsFile(i, tsCount));
  }
  // One barrel per directory: `export * from` every module in it.
  for (let d = 0; d * PER_DIR < tsCount; d++) {
    const names = Array.from({ length: Math.min(PER_DIR, tsCount - d * PER_DIR) }, (_, k) => `export * from './m${d * PER_DIR + k}';`);
    writeFileSync(path.join(root, 'src', `d${d}`, 'index.ts'), names.join('\n') + '\n');
  }
  mkdirSync(path.join(root, 'py', 'pkg'), { recursive: true });
  writeFileSync(path.join(root, 'py', 'pkg', '__init__.py'), '');
  for (let i = 0; i < pyCount; i++) writeFileSync(path.join(root, 'py', 'pkg', `p${i}.py`), pyFile(i, pyCount));
  return { tsCount, changed: `src/d0/m${PER_DIR - 1}.ts` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'h-graph-bench-'));
  const root = path.join(dir, 'repo');
  try {
    const { tsCount, changed } = generate(root);
    const builds: number[] = [];
    let graph: GraphService | null = null;
    for (let b = 0; b < BUILDS; b++) {
      graph?.close();
      graph = new GraphService(new PathResolver(root), { snapshotsDir: path.join(dir, 'snapshots') });
      const t0 = performance.now();
      await graph.rebuild();
      builds.push(performance.now() - t0);
    }
    if (!graph) throw new Error('no build');
    const status = graph.status();
    const g = graph.graph;
    // Two kinds of change: an edit inside a body (the common one: same exports, the graph's nodes
    // and edges stay) and one that adds an export (nodes and edges change, so everything is rendered).
    const body: number[] = [];
    const exported: number[] = [];
    let added = '';
    for (let u = 0; u < UPDATES; u++) {
      // The first half edits a body; the second adds one more export each time.
      const addsExport = u >= UPDATES / 2;
      if (addsExport) added += `export const touched${u} = ${u};\n`;
      const text = tsFile(PER_DIR - 1, tsCount).replace('let total = 0;', `let total = ${u};`) + added;
      writeFileSync(path.join(root, changed), text);
      const t0 = performance.now();
      await graph.update([changed]);
      (addsExport ? exported : body).push(performance.now() - t0);
    }
    const last = UPDATES - 1;
    const seen = (await graph.query({ query: 'exports', arg: changed })).text.includes(`touched${last}:const`);
    const kgBytes = statSync(`${graph.snapshotPath}.kg`).size;
    graph.close();

    const first = builds[0];
    const line = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return `median ${median(xs).toFixed(1)} ms, p95 ${sorted[Math.ceil(xs.length * 0.95) - 1].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
    };
    const upd = Math.max(median(body), median(exported));
    console.log(`graph bench: ${status.files} files (${tsCount} TS + barrels, ${FILES - tsCount} Python), ${status.symbols} symbols, ${g?.edges.length} edges, ${g?.imports.length} import records, .kg ${(kgBytes / 1024).toFixed(0)} KiB`);
    console.log(`  full build:  first ${first.toFixed(0)} ms, then ${builds.slice(1).map((b) => b.toFixed(0)).join(' / ')} ms   target ≤ ${TARGET_BUILD_MS} ms  ${first <= TARGET_BUILD_MS ? 'OK' : 'MISSED'}`);
    console.log(`  update after one file change (${UPDATES} runs), target median ≤ ${TARGET_UPDATE_MS} ms  ${upd <= TARGET_UPDATE_MS ? 'OK' : 'MISSED'}`);
    console.log(`    body edit:         ${line(body)}`);
    console.log(`    export added:      ${line(exported)}`);
    console.log(`  the update is in the graph: ${seen ? 'yes' : 'NO'}`);
    if (first > TARGET_BUILD_MS || upd > TARGET_UPDATE_MS || !seen) process.exitCode = 1;
  } finally {
    if (!process.env.BENCH_GRAPH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${root}`);
  }
}

void main();
