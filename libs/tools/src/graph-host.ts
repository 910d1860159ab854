// What read_graph needs from a workspace: its sandbox's knowledge graph (sandboxd's `graph.query`,
// libs/sandbox-protocol graph-protocol.ts). The worker passes one per run (libs/sandbox
// SandboxGraphHost); without one the tool refuses and says so.
import type { GraphQueryParams, GraphQueryResult } from '@h/sandbox-protocol';

export interface GraphHost {
  query(params: GraphQueryParams): Promise<GraphQueryResult>;
}
