import type { AgentEvent } from '@h/contracts';
import type { EventEnvelope } from '@h/db';
import type { McpConnections, McpConnector, McpServerFailure } from '@h/mcp';
import type { SandboxRecord } from '@h/sandbox';
import { ToolRegistry } from '@h/tools';
import type { SandboxManager } from '@h/workspaces';

/** Connects a run segment to the workspace's external MCP servers, stdio ones spawned in its sandbox. */
export async function openRunMcp(
  connector: McpConnector,
  sandboxes: SandboxManager,
  workspace: { id: string; networkEnabled: boolean },
  record: SandboxRecord,
  signal: AbortSignal,
): Promise<McpConnections> {
  const driver = await sandboxes.driver();
  const spawn = driver.spawn?.bind(driver);
  return connector.open({ workspace, spawn: spawn ? (options) => spawn(record, options) : null, signal });
}

/** A segment that connects to no MCP server (a sub-agent: exactly its profile's tools). */
export function noMcp(): McpConnections {
  return { tools: [], failures: [], connected: [], close: async () => undefined };
}

/**
 * The tools of a segment: the run's own (run-shape.ts), then the servers' (ordered by name,
 * McpConnector). With no MCP tool it is the shape's frozen registry itself, so a workspace without
 * servers sends the very same definitions (and keeps its cached prefix).
 */
export function runTools(base: ToolRegistry, mcp: McpConnections): ToolRegistry {
  return mcp.tools.length ? new ToolRegistry([...base.tools, ...mcp.tools]) : base;
}

/**
 * The `error` events telling the run which servers failed: right after `run.started` (the log keeps
 * its order), and once per run: a segment resumed after an approval that finds the same failure
 * adds nothing new.
 */
export class McpNotices {
  private pending: AgentEvent[];

  constructor(runId: string, stored: EventEnvelope[], failures: McpServerFailure[]) {
    const told = new Set(
      stored
        .filter((e) => e.runId === runId && e.type === 'error' && (e.data as { code?: string }).code === 'MCP_SERVER_UNAVAILABLE')
        .map((e) => (e.data as { message: string }).message),
    );
    this.pending = failures
      .filter((f) => !told.has(f.message))
      .map((f): AgentEvent => ({ type: 'error', data: { code: 'MCP_SERVER_UNAVAILABLE', message: f.message } }));
  }

  after(event: AgentEvent): AgentEvent[] {
    if (event.type !== 'run.started' || !this.pending.length) return [];
    const out = this.pending;
    this.pending = [];
    return out;
  }
}
