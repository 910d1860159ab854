// The codebase knowledge graph (issue 14 point 5, the seed's "Knowledge Graph"): built inside the
// workspace's sandbox on start and kept current from its file watcher; queried by the agent's
// read_graph tool and its status shown in the IDE's status bar. Zod-free: the browser imports it.

/** The seed's six read_graph queries. */
export const GRAPH_QUERIES = ['structure', 'exports', 'imports_of', 'exporters_of', 'dependents', 'unused_imports'] as const;
export type GraphQuery = (typeof GRAPH_QUERIES)[number];

/** building: the first build runs; ready: a graph is stored (an update may be pending); error: the last build failed. */
export type GraphState = 'building' | 'ready' | 'error';

export interface GraphStatus {
  state: GraphState;
  /** Files and exported symbols in the current graph (0 while the first build runs). */
  files: number;
  symbols: number;
  /** Changes are being folded in: a newer graph follows shortly (ask again). */
  updating: boolean;
  /** ISO time the current graph was written. */
  builtAt: string | null;
  /** How long the last build or update took. */
  lastBuildMs: number | null;
  /** The last failure, e.g. the snapshot directory could not be written. */
  error: string | null;
}
