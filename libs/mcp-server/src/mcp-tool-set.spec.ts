import { MCP_SERVER_TOOL_NAMES, MCP_SERVER_TOOL_SCOPES } from '@h/contracts';
import { params, type AgentTool } from '@h/tools';
import { McpToolSet } from './mcp-tool-set';

const input = params({});
const readTool = (name: string): AgentTool => ({ name, description: `${name}.`, category: 'read', parameters: input.json, input: input.zod, execute: async () => ({ text: name }) });
const extra = ['git_status', 'git_log', 'git_diff', 'system_info'].map(readTool);

describe(McpToolSet.name, () => {
  it("should offer the seed's tools in the contract's order, with the agent tools' own schemas", () => {
    const set = new McpToolSet(extra);
    expect(set.definitions().map((d) => d.name)).toEqual(MCP_SERVER_TOOL_NAMES);
    expect(set.definitions().find((d) => d.name === 'write_file')?.inputSchema).toEqual({ type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] });
  });

  it('should mark reads read-only and writes, deletes and commands as needing the write scope', () => {
    const set = new McpToolSet(extra);
    for (const d of set.definitions()) {
      expect({ name: d.name, readOnly: d.annotations.readOnlyHint, scope: set.scopeOf(d.name) }).toEqual({ name: d.name, readOnly: MCP_SERVER_TOOL_SCOPES[d.name as keyof typeof MCP_SERVER_TOOL_SCOPES] === 'read', scope: MCP_SERVER_TOOL_SCOPES[d.name as keyof typeof MCP_SERVER_TOOL_SCOPES] });
    }
    const byName = new Map(set.definitions().map((d) => [d.name, d.annotations]));
    expect(byName.get('delete_file')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('create_directory')).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(byName.get('run_command')).toMatchObject({ destructiveHint: true, openWorldHint: true });
    expect(set.scopeOf('run_in_terminal')).toBeNull();
  });

  it('should never describe a tool by pointing at one it does not offer', () => {
    const text = new McpToolSet(extra).definitions().map((d) => d.description).join(' ');
    expect(text).not.toMatch(/run_in_terminal|read_command_output|write_todos|task_complete/);
  });

  it('should refuse a tool set where the contract and a tool disagree on the scope', () => {
    const writingStatus = { ...readTool('git_status'), category: 'write' as const };
    expect(() => new McpToolSet([writingStatus, ...extra.slice(1)])).toThrow(/git_status: scope and category disagree/);
  });
});
