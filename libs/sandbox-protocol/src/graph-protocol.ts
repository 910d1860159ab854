// Knowledge-graph methods of the sandbox protocol (served by apps/sandboxd's graph service, called
// by the worker's read_graph tool and the api's status route). sandboxd builds the graph when it
// starts and updates it from its watcher; the .kg/.txt files live under the sandbox user's
// ~/.h/snapshots/ (the seed's file-tree-snapshot-<md5 of the root>.kg).
import type { GraphQuery, GraphStatus } from '@h/contracts';

export interface GraphQueryParams {
  query: GraphQuery;
  /** A file path (exports, imports_of, dependents, unused_imports), a symbol name (exporters_of), a directory or nothing (structure). */
  arg?: string;
  /** Wait for pending changes to be folded in first (default true), up to the service's cap. */
  fresh?: boolean;
}

export interface GraphQueryResult {
  /** The answer as the model reads it (the seed's shapes). */
  text: string;
  status: GraphStatus;
}

export interface GraphMethods {
  'graph.status': [Record<string, never>, GraphStatus];
  'graph.query': [GraphQueryParams, GraphQueryResult];
}
