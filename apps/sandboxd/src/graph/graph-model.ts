// The knowledge graph's shapes (the seed's "Knowledge Graph" schema): what a parser says about one
// file (FileFacts, kept per file so an update re-parses only the files that changed) and the
// assembled graph that the .kg v3 file stores one line per node, edge and import record.

export type KgNodeType = 'dir' | 'file' | 'symbol';
export type KgEdgeType = 'CONTAINS' | 'EXPORTS' | 'IMPORTS' | 'IMPORTS_SYMBOL';
export type ImportClassification = 'local' | 'stdlib' | 'third-party';

/** One imported binding: `imported` is the target's name ('default', '*' for a namespace), `local` the name in this file. */
export interface ImportedName {
  imported: string;
  local: string;
}

/**
 * One import statement as parsed. `names` is empty for side-effect imports, dynamic import() and a
 * bare require(); a re-export (`export … from`) carries the names it passes on and `reexport`.
 */
export interface ParsedImport {
  module: string;
  names: ImportedName[];
  /** Local names never referenced outside import statements. */
  unused: string[];
  /** `export * from` (names: [{*,*}]) or `export {a as b} from` / `export * as ns from`. */
  reexport?: boolean;
}

export interface ParsedExport {
  name: string;
  /** function | class | const | type | interface | enum | default | variable (Python) | namespace. */
  kind: string;
}

export interface FileFacts {
  language: 'ts' | 'py';
  exports: ParsedExport[];
  imports: ParsedImport[];
}

export interface KgNode {
  id: number;
  type: KgNodeType;
  /** -1 for the root directory. */
  parent: number;
  name: string;
  /** A file's extension, a symbol's kind, '' for directories. */
  kind: string;
}

export interface KgEdge {
  from: number;
  to: number;
  type: KgEdgeType;
}

export interface KgImport {
  from: number;
  module: string;
  classification: ImportClassification;
  /** -1: not a file of the workspace. */
  target: number;
  names: ImportedName[];
  unused: string[];
}

export interface KnowledgeGraph {
  /** The workspace's absolute root as the header names it. */
  root: string;
  nodes: KgNode[];
  edges: KgEdge[];
  imports: KgImport[];
}
