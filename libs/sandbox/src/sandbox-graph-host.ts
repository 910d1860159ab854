import type { GraphQueryParams, GraphQueryResult } from '@h/sandbox-protocol';
import type { SandboxClientProvider } from './sandbox-workspace';

/**
 * read_graph's way to the workspace sandbox's knowledge graph (sandboxd `graph.query`). Implements
 * the tools' GraphHost (libs/tools graph-host.ts); errors stay RpcErrors, whose message the model reads.
 */
export class SandboxGraphHost {
  constructor(private readonly clients: SandboxClientProvider) {}

  async query(params: GraphQueryParams): Promise<GraphQueryResult> {
    const client = await this.clients();
    return client.call('graph.query', params);
  }
}
