// The seed's on-disk forms: the .kg v3 edge list (one self-contained `|`-separated line per node,
// edge and import record; paths rebuilt by walking parent chains) and the .txt nested tree with
// export/import annotations written beside it.
import type { ImportClassification, ImportedName, KgEdgeType, KgNodeType, KnowledgeGraph } from './graph-model';

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
  const lines = [
    `# Knowledge Graph v3 — ${clean(g.root)}`,
    `# Nodes: ${g.nodes.length}  Edges: ${g.edges.length}  Imports: ${g.imports.length}`,
    '# Format: n<id>|<type>|<parentId>||<name>|<kind>',
    '#         e<id>|<fromId>|<toId>|<type>',
    '#         i<fromId>|<module>|<classification>|<targetFileId>|<names>|<unused>',
    '#   type: dir|file|symbol  classification: local|stdlib|third-party',
    '#   names: imported:local pairs (comma-joined)  unused: local names (comma-joined)',
    '',
  ];
  for (const n of g.nodes) lines.push(`n${n.id}|${n.type}|${ref(n.parent)}||${clean(n.name)}|${clean(n.kind)}`);
  lines.push('');
  g.edges.forEach((e, i) => lines.push(`e${i}|n${e.from}|n${e.to}|${e.type}`));
  lines.push('');
  for (const imp of g.imports) lines.push(`in${imp.from}|${clean(imp.module)}|${imp.classification}|${ref(imp.target)}|${formatNames(imp.names)}|${imp.unused.map(cleanName).join(',')}`);
  return lines.join('\n') + '\n';
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
