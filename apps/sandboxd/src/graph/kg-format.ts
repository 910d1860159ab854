// The seed's on-disk forms: the .kg v3 edge list (one self-contained `|`-separated line per node,
// edge and import record; paths rebuilt by walking parent chains) and the .txt nested tree with
// export/import annotations written beside it.
import type { ImportClassification, ImportedName, KgEdge, KgEdgeType, KgImport, KgNode, KgNodeType, KnowledgeGraph } from './graph-model';

/** `|` separates fields and `,` names; neither may appear inside one (a module path could hold them). */
const BAD = /[|\n\r]/;
const BAD_NAME = /[|\n\r,]/;
// Tested first: nearly every field is clean, and a replace per field doubles the writing time.
const clean = (s: string) => (BAD.test(s) ? s.replace(/[|\n\r]/g, '_') : s);
const cleanName = (s: string) => (BAD_NAME.test(s) ? s.replace(/[|\n\r,]/g, '_') : s);
const ref = (id: number) => (id < 0 ? '' : `n${id}`);
const unref = (s: string) => (s ? Number(s.slice(1)) : -1);

export const formatNames = (names: ImportedName[]) => names.map((n) => (n.imported === n.local ? cleanName(n.imported) : `${cleanName(n.imported)}:${cleanName(n.local)}`)).join(',');

export function serializeKg(g: KnowledgeGraph): string {
  return `${kgHeader(g)}${kgNodes(g.nodes)}\n${kgEdges(g.edges)}\n${kgImports(g.imports)}`;
}

function kgHeader(g: KnowledgeGraph): string {
  return [
    `# Knowledge Graph v3 — ${clean(g.root)}`,
    `# Nodes: ${g.nodes.length}  Edges: ${g.edges.length}  Imports: ${g.imports.length}`,
    '# Format: n<id>|<type>|<parentId>||<name>|<kind>',
    '#         e<id>|<fromId>|<toId>|<type>',
    '#         i<fromId>|<module>|<classification>|<targetFileId>|<names>|<unused>',
    '#   type: dir|file|symbol  classification: local|stdlib|third-party',
    '#   names: imported:local pairs (comma-joined)  unused: local names (comma-joined)',
    '',
    '',
  ].join('\n');
}

function kgNodes(nodes: readonly KgNode[]): string {
  let out = '';
  for (const n of nodes) out += `n${n.id}|${n.type}|${ref(n.parent)}||${clean(n.name)}|${clean(n.kind)}\n`;
  return out;
}

function kgEdges(edges: readonly KgEdge[]): string {
  let out = '';
  for (let i = 0; i < edges.length; i++) out += `e${i}|n${edges[i].from}|n${edges[i].to}|${edges[i].type}\n`;
  return out;
}

function kgImports(imports: readonly KgImport[]): string {
  let out = '';
  for (const imp of imports) out += `in${imp.from}|${clean(imp.module)}|${imp.classification}|${ref(imp.target)}|${formatNames(imp.names)}|${imp.unused.map(cleanName).join(',')}\n`;
  return out;
}

const sameNodes = (a: readonly KgNode[], b: readonly KgNode[]) =>
  a.length === b.length && a.every((n, i) => n.type === b[i].type && n.parent === b[i].parent && n.name === b[i].name && n.kind === b[i].kind);
const sameEdges = (a: readonly KgEdge[], b: readonly KgEdge[]) => a.length === b.length && a.every((e, i) => e.from === b[i].from && e.to === b[i].to && e.type === b[i].type);

/**
 * Renders graph after graph, reusing the node and edge sections' text (and the whole .txt) when
 * they are the same as last time: an edit inside a file's body, the common update, changes at most
 * its import records, and writing the other ~90 % of a large .kg again was most of an update's time.
 */
export class KgRenderer {
  private last: { nodes: readonly KgNode[]; edges: readonly KgEdge[]; nodesText: string; edgesText: string; txt: string } | null = null;

  render(g: KnowledgeGraph): { kg: string; txt: string; txtChanged: boolean } {
    const last = this.last;
    const keepNodes = !!last && sameNodes(last.nodes, g.nodes);
    const keepEdges = keepNodes && !!last && sameEdges(last.edges, g.edges);
    const nodesText = keepNodes && last ? last.nodesText : kgNodes(g.nodes);
    const edgesText = keepEdges && last ? last.edgesText : kgEdges(g.edges);
    const txt = keepEdges && last ? last.txt : visualizeKg(g);
    this.last = { nodes: g.nodes, edges: g.edges, nodesText, edgesText, txt };
    return { kg: `${kgHeader(g)}${nodesText}\n${edgesText}\n${kgImports(g.imports)}`, txt, txtChanged: !keepEdges };
  }
}

export function parseKg(text: string): KnowledgeGraph {
  const g: KnowledgeGraph = { root: '', nodes: [], edges: [], imports: [] };
  for (const line of text.split('\n')) {
    if (line.startsWith('# Knowledge Graph v3 — ')) g.root = line.slice('# Knowledge Graph v3 — '.length);
    if (!line || line.startsWith('#')) continue;
    const f = line.split('|');
    if (line.startsWith('n')) g.nodes.push({ id: Number(f[0].slice(1)), type: f[1] as KgNodeType, parent: unref(f[2]), name: f[4], kind: f[5] ?? '' });
    else if (line.startsWith('e')) g.edges.push({ from: unref(f[1]), to: unref(f[2]), type: f[3] as KgEdgeType });
    else if (line.startsWith('i')) {
      const names = f[4]
        ? f[4].split(',').map((p) => {
            const [imported, local] = p.split(':');
            return { imported, local: local ?? imported };
          })
        : [];
      g.imports.push({ from: unref(f[0].slice(1)), module: f[1], classification: f[2] as ImportClassification, target: unref(f[3]), names, unused: f[5] ? f[5].split(',') : [] });
    }
  }
  return g;
}

/** The .txt sidecar: nested directories, each code file with its exports and the symbols it imports. */
export function visualizeKg(g: KnowledgeGraph): string {
  const kids = new Map<number, number[]>();
  for (const n of g.nodes) {
    if (n.parent < 0) continue;
    let list = kids.get(n.parent);
    if (!list) kids.set(n.parent, (list = []));
    list.push(n.id);
  }
  const importedSymbols = new Map<number, string[]>();
  let fileImports = 0;
  let symbolImports = 0;
  for (const e of g.edges) {
    if (e.type === 'IMPORTS') fileImports++;
    if (e.type !== 'IMPORTS_SYMBOL') continue;
    symbolImports++;
    let list = importedSymbols.get(e.from);
    if (!list) importedSymbols.set(e.from, (list = []));
    list.push(g.nodes[e.to].name);
  }
  let exportCount = 0;
  const out: string[] = [];
  const walk = (id: number, depth: number) => {
    const n = g.nodes[id];
    const pad = '  '.repeat(depth);
    if (n.type === 'dir') {
      out.push(`${pad}${n.name} {`);
      for (const k of kids.get(id) ?? []) if (g.nodes[k].type !== 'symbol') walk(k, depth + 1);
      out.push(`${pad}}`);
      return;
    }
    const exps = (kids.get(id) ?? []).map((k) => g.nodes[k]).filter((s) => s.type === 'symbol');
    exportCount += exps.length;
    const notes: string[] = [];
    if (exps.length) notes.push(`exports: ${exps.map((s) => `${s.name}:${s.kind}`).join(', ')}`);
    const imps = importedSymbols.get(id);
    if (imps?.length) notes.push(`→ ${imps.join(', ')}`);
    out.push(`${pad}${n.name}${notes.length ? `  (${notes.join('; ')})` : ''}`);
  };
  if (g.nodes.length) walk(0, 0);
  out.push(`# ${exportCount} exports`, `# ${fileImports} file-level imports`, `# ${symbolImports} symbol-level imports`);
  return out.join('\n') + '\n';
}
