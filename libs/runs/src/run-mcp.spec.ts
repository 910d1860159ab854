import type { AgentEvent } from '@h/contracts';
import type { EventEnvelope } from '@h/db';
import { authorizeCall } from './permission-policy';
import { McpNotices } from './run-mcp';

const failure = { serverId: 's1', server: 'broken', message: 'MCP server "broken" is unavailable: Connection closed' };
const started: AgentEvent = { type: 'run.started', data: { model: 'm', thinking: false, systemChunkIds: [] } };

describe(McpNotices.name, () => {
  it('should tell each failed server once, right after run.started', () => {
    const notices = new McpNotices('r1', [], [failure]);
    expect(notices.after({ type: 'message.user', data: { content: 'x' } })).toEqual([]);
    expect(notices.after(started)).toEqual([{ type: 'error', data: { code: 'MCP_SERVER_UNAVAILABLE', message: failure.message } }]);
    expect(notices.after(started)).toEqual([]);
  });

  it('should not repeat a failure an earlier segment of the same run already told', () => {
    const told = { runId: 'r1', type: 'error', data: { code: 'MCP_SERVER_UNAVAILABLE', message: failure.message } } as unknown as EventEnvelope;
    expect(new McpNotices('r1', [told], [failure]).after(started)).toEqual([]);
    expect(new McpNotices('r2', [told], [failure]).after(started)).toHaveLength(1);
  });
});

describe(authorizeCall.name, () => {
  it('should ask for an MCP tool with the rule ask in approve mode, and run it with the rule allow', () => {
    expect(authorizeCall('approve', 'command', undefined, 'ask')).toEqual({ behavior: 'ask' });
    expect(authorizeCall('approve', 'command', undefined, 'allow')).toEqual({ behavior: 'allow' });
    expect(authorizeCall('bypass', 'command', undefined, 'ask')).toEqual({ behavior: 'allow' });
    expect(authorizeCall('approve', 'command', { behavior: 'deny', updatedInput: null, message: 'no' }, 'ask')).toEqual({ behavior: 'deny', message: 'no' });
  });
});
