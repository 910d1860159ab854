// Assembles the graph from the workspace's paths and every parsed file's facts: node ids in a
// depth-first walk (a file's symbols right after it), CONTAINS and EXPORTS edges, then each
// file's imports resolved to IMPORTS (file → file) and IMPORTS_SYMBOL (file → symbol) edges and
// import records. Cheap next to parsing, so an update re-assembles everything from cached facts.
import * as path from 'node:path';
import type { FileFacts, KgEdge, KgImport, KgNode, KnowledgeGraph, ParsedExport } from './graph-model';
import { ModuleResolver, type Resolution } from './module-resolver';
import type { PathAlias } from './tsconfig-paths';

export interface GraphInput {
  /** Absolute workspace root (named in the header; its basename names the root node). */
  root: string;
  /** Workspace-relative files and directories the graph covers. */
  files: ReadonlySet<string>;
  dirs: ReadonlySet<string>;
  /** Parsed facts of the TS/JS and Python files among `files`. */
  facts: ReadonlyMap<string, FileFacts>;
  /**
   * Resolved imports per file, filled in as computed: the caller keeps it across updates and drops a
   * file's entry when its facts change, and all of it when files or directories come or go.
   */
  resolutions?: Map<string, Resolution[]>;
  /** The root tsconfig's `paths` (tsconfig-paths.ts). */
  aliases?: readonly PathAlias[];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildGraph(input: GraphInput): KnowledgeGraph {
  const resolver = new ModuleResolver(input.files, input.dirs, input.aliases);
  const resolved = input.resolutions ?? new Map<string, Resolution[]>();
  for (const [rel, facts] of input.facts) {
    if (!resolved.has(rel)) resolved.set(rel, facts.imports.map((imp) => resolver.resolve(rel, imp.module, facts.language)));
  }

  // Exported names per file, re-exports followed through (a cycle ends at the file seen twice).
  const exportMemo = new Map<string, ParsedExport[]>();
  const exportsOf = (rel: string, seen: Set<string>): ParsedExport[] => {
    const memo = exportMemo.get(rel);
    if (memo) return memo;
    const facts = input.facts.get(rel);
    if (!facts || seen.has(rel)) return facts?.exports ?? [];
    seen.add(rel);
    const out = [...facts.exports];
    const has = new Set(out.map((e) => e.name));
    const push = (e: ParsedExport) => {
      if (!has.has(e.name)) {
        has.add(e.name);
        out.push(e);
      }
    };
    const res = resolved.get(rel) ?? [];
    facts.imports.forEach((imp, i) => {
      if (!imp.reexport) return;
      const target = res[i]?.target;
      const theirs = target ? exportsOf(target, seen) : [];
      for (const n of imp.names) {
        if (n.imported === '*' && n.local === '*') {
          for (const e of theirs) if (e.kind !== 'default' && e.name !== 'default') push(e);
        }
        else if (n.imported === '*') push({ name: n.local, kind: 'namespace' });
        else push({ name: n.local, kind: findExport(theirs, n.imported)?.kind ?? 'const' });
      }
    });
    seen.delete(rel);
    exportMemo.set(rel, out);
    return out;
  };

  const children = new Map<string, string[]>();
  const addChild = (rel: string) => {
    const parent = path.posix.dirname(rel);
    const key = parent === '.' ? '' : parent;
    let list = children.get(key);
    if (!list) children.set(key, (list = []));
    list.push(rel);
  };
  for (const d of input.dirs) addChild(d);
  for (const f of input.files) addChild(f);

  const nodes: KgNode[] = [];
  const edges: KgEdge[] = [];
  const fileIds = new Map<string, number>();
  const symbolIds = new Map<string, Map<string, number>>();
  const symbolKinds = new Map<number, string>();
  const walk = (rel: string, parent: number) => {
    const isDir = rel === '' || input.dirs.has(rel);
    const id = nodes.length;
    const name = rel === '' ? path.basename(input.root) || '/' : path.posix.basename(rel);
    nodes.push({ id, type: isDir ? 'dir' : 'file', parent, name, kind: isDir ? '' : extensionKind(name) });
    if (parent >= 0) edges.push({ from: parent, to: id, type: 'CONTAINS' });
    if (isDir) {
      for (const child of (children.get(rel) ?? []).sort((a, b) => byName(path.posix.basename(a), path.posix.basename(b)))) walk(child, id);
      return;
    }
    fileIds.set(rel, id);
    if (!input.facts.has(rel)) return;
    const symbols = new Map<string, number>();
    for (const e of exportsOf(rel, new Set())) {
      const sid = nodes.length;
      nodes.push({ id: sid, type: 'symbol', parent: id, name: e.name, kind: e.kind });
      edges.push({ from: id, to: sid, type: 'EXPORTS' });
      symbols.set(e.name, sid);
      symbolKinds.set(sid, e.kind);
    }
    symbolIds.set(rel, symbols);
  };
  walk('', -1);

  const imports: KgImport[] = [];
  const seenEdges = new Set<string>();
  const edge = (from: number, to: number, type: KgEdge['type']) => {
    const key = `${from}|${to}|${type}`;
    if (seenEdges.has(key)) return;
    seenEdges.add(key);
    edges.push({ from, to, type });
  };
  for (const [rel, facts] of [...input.facts].sort(([a], [b]) => byName(a, b))) {
    const from = fileIds.get(rel);
    if (from === undefined) continue;
    const resolutions = resolved.get(rel) ?? [];
    facts.imports.forEach((imp, i) => {
      const { classification, target } = resolutions[i];
      const targetId = target ? (fileIds.get(target) ?? -1) : -1;
      imports.push({ from, module: imp.module, classification, target: targetId, names: imp.names, unused: imp.unused });
      if (!target || targetId < 0) return;
      edge(from, targetId, 'IMPORTS');
      const symbols = symbolIds.get(target) ?? new Map<string, number>();
      for (const n of imp.names) {
        if (n.imported === '*') continue;
        let sid = symbols.get(n.imported);
        if (sid === undefined && n.imported === 'default') sid = [...symbols.values()].find((s) => symbolKinds.get(s) === 'default');
        if (sid !== undefined) edge(from, sid, 'IMPORTS_SYMBOL');
        else if (facts.language === 'py') {
          // `from pkg import mod`: a submodule rather than a name the package defines.
          const sub = resolver.pyModuleFile(`${path.posix.dirname(target)}/${n.imported}`.replace(/^\.\//, ''));
          const subId = sub && target.endsWith('__init__.py') ? fileIds.get(sub) : undefined;
          if (subId !== undefined) edge(from, subId, 'IMPORTS');
        }
      }
    });
  }
  return { root: input.root, nodes, edges, imports };
}

function findExport(list: ParsedExport[], name: string): ParsedExport | undefined {
  return list.find((e) => e.name === name) ?? (name === 'default' ? list.find((e) => e.kind === 'default') : undefined);
}

function extensionKind(name: string): string {
  if (name.endsWith('.d.ts')) return 'd.ts';
  const ext = path.posix.extname(name);
  return ext ? ext.slice(1) : '';
}
