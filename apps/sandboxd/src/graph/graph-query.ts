// The read_graph queries (the seed's six: structure, exports, imports_of, exporters_of,
// dependents, unused_imports) answered from a graph as the .kg file holds it, in the seed's output
// shapes: plain text, one item per line, paths relative to the workspace root.
import { GRAPH_QUERIES, type GraphQuery } from '@h/contracts';
import type { KgImport, KgNode, KnowledgeGraph } from './graph-model';

/** Lines `structure` prints at most; a directory argument narrows it. */
export const STRUCTURE_MAX_LINES = 2000;

const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
const TAGS: Record<KgImport['classification'], string> = { local: '', stdlib: ' [stdlib]', 'third-party': ' [third-party]' };

export class GraphIndex {
  /** Workspace-relative path per dir/file node ('' for the root). */
  private readonly paths = new Map<number, string>();
  private readonly byPath = new Map<string, KgNode>();
  private readonly symbols = new Map<number, KgNode[]>();
  private readonly importsFrom = new Map<number, KgImport[]>();
  private readonly importsTo = new Map<number, KgImport[]>();
  /** IMPORTS edges into a file (a Python submodule imported as `from pkg import mod` has no record of its own). */
  private readonly importedBy = new Map<number, number[]>();

  constructor(readonly graph: KnowledgeGraph) {
    for (const n of graph.nodes) {
      if (n.type === 'symbol') {
        push(this.symbols, n.parent, n);
        continue;
      }
      const parent = n.parent < 0 ? null : this.paths.get(n.parent);
      const rel = parent === null ? '' : parent ? `${parent}/${n.name}` : n.name;
      this.paths.set(n.id, rel);
      this.byPath.set(rel, n);
    }
    for (const imp of graph.imports) {
      push(this.importsFrom, imp.from, imp);
      if (imp.target >= 0) push(this.importsTo, imp.target, imp);
    }
    for (const e of graph.edges) if (e.type === 'IMPORTS') push(this.importedBy, e.to, e.from);
  }

  get rootName(): string {
    return this.graph.nodes[0]?.name ?? '';
  }

  query(query: GraphQuery, arg: string): string {
    if (query === 'structure') return this.structure(arg);
    if (!arg.trim()) return `${query} needs an argument: ${query === 'exporters_of' ? 'a symbol name' : 'a file path'}`;
    if (query === 'exporters_of') return this.exportersOf(arg.trim());
    const file = this.file(arg);
    if (typeof file === 'string') return file;
    const rel = this.paths.get(file.id)!;
    if (query === 'exports') return this.exports(file, rel);
    if (query === 'imports_of') return this.importsOf(file, rel);
    if (query === 'dependents') return this.dependents(file, rel);
    return this.unusedImports(file, rel);
  }

  /** The file node an argument names (relative, ./-prefixed, absolute, or under the root's name), or why not. */
  private file(arg: string): KgNode | string {
    const raw = arg.trim().replace(/\\/g, '/');
    const root = this.graph.root.replace(/\/$/, '');
    const candidates = [raw.replace(/^\.\//, '').replace(/\/$/, '')];
    if (root && raw.startsWith(`${root}/`)) candidates.push(raw.slice(root.length + 1));
    if (raw.startsWith(`${this.rootName}/`)) candidates.push(raw.slice(this.rootName.length + 1));
    for (const c of candidates) {
      const n = this.byPath.get(c);
      if (n?.type === 'file') return n;
      if (n?.type === 'dir') return `${c || '.'} is a directory, not a file`;
    }
    const base = candidates[0].split('/').pop()!;
    const similar = [...this.byPath].filter(([p, n]) => n.type === 'file' && p.split('/').pop() === base).map(([p]) => p).slice(0, 5);
    return `No file ${candidates[0]} in the graph${similar.length ? `; files named ${base}: ${similar.join(', ')}` : ''}`;
  }

  private structure(arg: string): string {
    const under = arg.trim().replace(/^\.\//, '').replace(/\/$/, '');
    const all = [...this.byPath].filter(([p]) => !under || p === under || p.startsWith(`${under}/`)).map(([p]) => (p ? `${this.rootName}/${p}` : this.rootName));
    if (!all.length) return `No directory ${under} in the graph`;
    all.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const shown = all.slice(0, STRUCTURE_MAX_LINES);
    const more = all.length > shown.length ? [`… ${all.length - shown.length} more (ask structure <directory> for a part)`] : [];
    return [`Directory tree (${all.length} entries):`, ...shown, ...more].join('\n');
  }

  private exports(file: KgNode, rel: string): string {
    const list = (this.symbols.get(file.id) ?? []).map((s) => `${s.name}:${s.kind}`).sort(byText);
    return list.length ? [`${rel} exports:`, ...list].join('\n') : `${rel} exports nothing`;
  }

  private importsOf(file: KgNode, rel: string): string {
    const lines: string[] = [];
    for (const imp of this.importsFrom.get(file.id) ?? []) {
      const tag = TAGS[imp.classification];
      if (!imp.names.length) lines.push(`  ${imp.module} (whole module)${tag}`);
      for (const n of imp.names) {
        const shown = n.imported === 'default' || n.imported === n.local ? n.local : `${n.imported} as ${n.local}`;
        lines.push(`  ${shown} from ${imp.module}${tag}`);
      }
    }
    return lines.length ? [`${rel} imports:`, ...lines].join('\n') : `${rel} imports nothing`;
  }

  private exportersOf(symbol: string): string {
    const want = symbol.toLowerCase();
    const lines: string[] = [];
    for (const n of this.graph.nodes) {
      if (n.type === 'symbol' && n.name.toLowerCase() === want) lines.push(`${this.paths.get(n.parent)} → ${n.name}:${n.kind}`);
    }
    lines.sort(byText);
    return lines.length ? [`Files exporting '${symbol}':`, ...lines].join('\n') : `No file exports '${symbol}'`;
  }

  /**
   * Files importing this one, and those importing its symbols through files that re-export them
   * (`export { x } from`, `export * from`, or an import passed on by `export { x }`).
   */
  private dependents(file: KgNode, rel: string): string {
    const found = new Set<number>((this.importedBy.get(file.id) ?? []).filter((id) => id !== file.id));
    const names = (id: number) => new Set((this.symbols.get(id) ?? []).map((s) => s.name));
    const queue: { id: number; carried: Set<string> }[] = [{ id: file.id, carried: names(file.id) }];
    const visited = new Set<number>([file.id]);
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { id, carried } = next;
      for (const imp of this.importsTo.get(id) ?? []) {
        const star = imp.names.some((n) => n.imported === '*');
        const hit = imp.names.filter((n) => n.imported === '*' || carried.has(n.imported));
        if (id !== file.id && !star && !hit.length) continue;
        if (imp.from !== file.id) found.add(imp.from);
        if (visited.has(imp.from)) continue;
        const theirs = names(imp.from);
        const passed = new Set<string>();
        for (const n of hit) {
          if (n.imported === '*' && n.local === '*') {
            for (const c of carried) if (theirs.has(c)) passed.add(c);
          }
          else if (theirs.has(n.local)) passed.add(n.local);
        }
        if (passed.size) {
          visited.add(imp.from);
          queue.push({ id: imp.from, carried: passed });
        }
      }
    }
    const list = [...found].map((id) => this.paths.get(id) ?? '').sort(byText);
    return list.length ? [`${rel} is imported by:`, ...list].join('\n') : `${rel} is imported by no file`;
  }

  private unusedImports(file: KgNode, rel: string): string {
    const lines: string[] = [];
    for (const imp of this.importsFrom.get(file.id) ?? []) for (const u of imp.unused) lines.push(`  ${u} (from ${imp.module})`);
    return lines.length ? [`${rel} unused imports:`, ...lines].join('\n') : `${rel} has no unused imports`;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function isGraphQuery(q: unknown): q is GraphQuery {
  return typeof q === 'string' && (GRAPH_QUERIES as readonly string[]).includes(q);
}
