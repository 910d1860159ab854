import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_SERVER_TOOL_NAMES, MCP_SERVER_TOOL_SCOPES } from '@h/contracts';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { bearerClient, createToken, createWorkspace, sql, TeamFixture, teamWithRoles } from '../api/team-fixture';
import { execInSandbox, filesApi } from '../files/files-fixture';
import { mcpClient, postMcp, refusal, textOf } from './mcp-fixture';

const run = promisify(execFile);
const TOOL_TIMEOUT_MS = 6000;
const INSPECTOR = require.resolve('@modelcontextprotocol/inspector-cli/build/index.js');
// inspector-cli 1.0.3 looks for its package.json with existsSync("../package.json") against the
// process's working directory but imports it relative to its own file: run it from its build folder.
const INSPECTOR_CWD = dirname(INSPECTOR);

// Issue 12, point 5: H as an MCP server. The official SDK client (and the MCP Inspector CLI) over
// real HTTP to the api, tools acting on the workspace's real Docker sandbox.
describe('MCP server at /api/mcp', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let writer: { id: string; secret: string };
  let reader: { id: string; secret: string };
  let client: Client;
  const sh = (command: string) => execInSandbox(stack.sandboxPrefix, f.workspaceId, command);

  beforeAll(async () => {
    stack = await startStack({ env: { MCP_TOOL_TIMEOUT_MS: String(TOOL_TIMEOUT_MS) } });
    f = await teamWithRoles(stack.url, 'mcp');
    // The first file call starts the sandbox (container start is outside the tool timeout below).
    expect((await f.member.client.post(filesApi(f.workspaceId).entry('README.md'), { type: 'file', content: '# mcp project\n' })).status).toBe(201);
    writer = await createToken(f.member, f.teamId, { name: 'mcp-writer', scopes: ['read', 'write'], workspaceId: f.workspaceId });
    reader = await createToken(f.member, f.teamId, { name: 'mcp-reader', scopes: ['read'], workspaceId: f.workspaceId });
    client = await mcpClient(stack.url, writer.secret);
  });

  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  it("should list the seed's tools with their schemas and annotations from which a client knows what to confirm", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'H' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(MCP_SERVER_TOOL_NAMES);
    for (const t of tools) {
      expect({ name: t.name, type: t.inputSchema.type }).toEqual({ name: t.name, type: 'object' });
      expect({ name: t.name, readOnly: t.annotations?.readOnlyHint }).toEqual({ name: t.name, readOnly: MCP_SERVER_TOOL_SCOPES[t.name as keyof typeof MCP_SERVER_TOOL_SCOPES] === 'read' });
    }
    // Descriptions never point at agent tools the MCP server does not offer.
    expect(tools.find((t) => t.name === 'run_command')?.description).not.toMatch(/run_in_terminal|read_command_output/);
    expect(tools.find((t) => t.name === 'read_file')?.inputSchema).toMatchObject({ properties: { path: { type: 'string' } }, required: ['path'] });
  });

  it("should write, read and grep files in the workspace's sandbox", async () => {
    const written = await client.callTool({ name: 'write_file', arguments: { path: 'src/hello.txt', content: 'hello from mcp\nsecond line\n' } });
    expect(written.isError).toBe(false);
    expect(await sh('cat src/hello.txt')).toBe('hello from mcp\nsecond line\n');

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'src/hello.txt' } });
    expect(textOf(read)).toBe('1\thello from mcp\n2\tsecond line');

    await sh('printf "no match here\\n" > src/other.txt');
    const grep = await client.callTool({ name: 'grep', arguments: { pattern: 'from mcp' } });
    expect(textOf(grep)).toContain('src/hello.txt');
    expect(textOf(grep)).not.toContain('other.txt');

    const edited = await client.callTool({ name: 'edit_file', arguments: { path: 'src/hello.txt', old_string: 'second', new_string: '2nd' } });
    expect(edited.isError).toBe(false);
    expect(await sh('cat src/hello.txt')).toBe('hello from mcp\n2nd line\n');
    expect(textOf(await client.callTool({ name: 'search_files', arguments: { pattern: '*.txt' } }))).toContain('src/other.txt');
    expect(textOf(await client.callTool({ name: 'list_files', arguments: { path: 'src' } }))).toMatch(/hello\.txt[\s\S]*other\.txt/);
  });

  it('should run a command in the sandbox and answer its output, with the command policy of the agent', async () => {
    const res = await client.callTool({ name: 'run_command', arguments: { command: 'echo "sum=$((6*7))"; hostname' } });
    expect(res.isError).toBe(false);
    const text = textOf(res);
    expect(text).toMatch(/^exit 0/);
    expect(text).toContain('sum=42');
    // The sandbox's own host name: it ran in the workspace's container, not on the api's machine.
    expect(text).toContain((await sh('hostname')).trim());
    const server = await client.callTool({ name: 'run_command', arguments: { command: 'npx http-server -p 8080' } });
    expect(server.isError).toBe(true);
    expect(textOf(server)).toMatch(/^Refused:/);
    expect(textOf(server)).not.toContain('run_in_terminal');
  });

  it('should keep the agent tools\' guards: paths outside the workspace and secret files are refused', async () => {
    const escape = await client.callTool({ name: 'read_file', arguments: { path: '../../etc/passwd' } });
    expect(escape.isError).toBe(true);
    await sh('printf "API_KEY=sk-never-shown\\n" > .env');
    const secret = await client.callTool({ name: 'read_file', arguments: { path: '.env' } });
    expect(secret.isError).toBe(true);
    expect(textOf(secret)).not.toContain('sk-never-shown');
  });

  it('should show git status, log and diff of the workspace repository', async () => {
    expect(textOf(await client.callTool({ name: 'git_status', arguments: {} }))).toMatch(/no git repository/);
    const init = await client.callTool({ name: 'run_command', arguments: { command: 'git init -q -b main && git add README.md src && git -c user.name=Ada -c user.email=ada@example.com commit -qm "first commit" && echo done' } });
    expect(textOf(init)).toContain('done');
    await client.callTool({ name: 'write_file', arguments: { path: 'README.md', content: '# mcp project\nchanged by mcp\n' } });

    const status = textOf(await client.callTool({ name: 'git_status', arguments: {} }));
    expect(status).toMatch(/^branch main at [0-9a-f]{12}/);
    expect(status).toMatch(/unstaged:\n {2}modified: README\.md/);
    expect(textOf(await client.callTool({ name: 'git_log', arguments: { limit: 5 } }))).toMatch(/^[0-9a-f]{12} \S+ Ada <ada@example.com> {2}first commit$/);
    const diff = textOf(await client.callTool({ name: 'git_diff', arguments: { path: 'README.md' } }));
    expect(diff).toContain('+changed by mcp');
    expect(diff).toContain('--- a/README.md');
  });

  it("should report the sandbox's system and H's limits for it", async () => {
    const text = textOf(await client.callTool({ name: 'system_info', arguments: {} }));
    expect(text).toMatch(/^os: .*Debian/);
    expect(text).toMatch(/cpus visible: \d+; H's limit: /);
    expect(text).toContain('network: none');
  });

  it('should move and delete with the write scope, and record every call that changes something in the audit log', async () => {
    expect((await client.callTool({ name: 'create_directory', arguments: { path: 'docs/old' } })).isError).toBe(false);
    expect((await client.callTool({ name: 'rename_file', arguments: { old_path: 'src/other.txt', new_path: 'docs/old/other.txt' } })).isError).toBe(false);
    expect(await sh('cat docs/old/other.txt')).toBe('no match here\n');
    expect((await client.callTool({ name: 'delete_file', arguments: { path: 'docs' } })).isError).toBe(false);
    expect(await sh('test -e docs && echo there || echo gone')).toBe('gone\n');

    const rows = await sql<{ action: string; actorTokenId: string; targetId: string; metadata: { tool: string; arguments: Record<string, unknown>; outcome: string } }>(
      'SELECT action, "actorTokenId", "targetId", metadata FROM "AuditLog" WHERE "actorTokenId" = $1 ORDER BY id',
      [writer.id],
    );
    expect(rows.every((r) => r.action === 'mcp.tool_call' && r.targetId === f.workspaceId)).toBe(true);
    const tools = rows.map((r) => r.metadata.tool);
    for (const t of ['write_file', 'edit_file', 'run_command', 'create_directory', 'rename_file', 'delete_file']) expect(tools).toContain(t);
    // Reads are not recorded; file contents only by their length.
    expect(tools).not.toContain('read_file');
    expect(rows.find((r) => r.metadata.tool === 'write_file')?.metadata.arguments).toEqual({ path: 'src/hello.txt', content: '(27 characters)' });
  });

  it('should let a read token read but refuse its writes and commands with a JSON-RPC error naming the scope', async () => {
    const viewer = await mcpClient(stack.url, reader.secret);
    try {
      expect((await viewer.listTools()).tools).toHaveLength(MCP_SERVER_TOOL_NAMES.length);
      expect(textOf(await viewer.callTool({ name: 'read_file', arguments: { path: 'README.md' } }))).toContain('changed by mcp');
      const write = await refusal(viewer.callTool({ name: 'write_file', arguments: { path: 'viewer.txt', content: 'x' } }));
      expect(write).toMatchObject({ code: -32000, dataCode: 'INSUFFICIENT_SCOPE' });
      expect(write.message).toContain('the write scope');
      expect((await refusal(viewer.callTool({ name: 'run_command', arguments: { command: 'touch viewer.txt' } }))).dataCode).toBe('INSUFFICIENT_SCOPE');
      expect(await sh('test -e viewer.txt && echo there || echo absent')).toBe('absent\n');
    } finally {
      await viewer.close();
    }
  });

  it('should refuse writes of a write token whose creator now acts below the member role', async () => {
    const token = await createToken(f.admin, f.teamId, { name: 'mcp-demoted', scopes: ['read', 'write'], workspaceId: f.workspaceId });
    expect((await f.owner.client.patch(`/api/v1/teams/${f.teamId}/members/${f.admin.userId}`, { role: 'viewer' })).status).toBe(200);
    const demoted = await mcpClient(stack.url, token.secret);
    try {
      expect(textOf(await demoted.callTool({ name: 'git_log', arguments: {} }))).toContain('first commit');
      expect(await refusal(demoted.callTool({ name: 'delete_file', arguments: { path: 'README.md' } }))).toMatchObject({ code: -32000, dataCode: 'FORBIDDEN' });
      expect(await sh('test -e README.md && echo kept')).toBe('kept\n');
    } finally {
      await demoted.close();
    }
  });

  it('should stop a tool call past MCP_TOOL_TIMEOUT_MS with JSON-RPC error -32001 TOOL_TIMEOUT', async () => {
    const timedOut = await refusal(client.callTool({ name: 'run_command', arguments: { command: 'sleep 61' } }, undefined, { timeout: 60_000 }));
    expect(timedOut).toMatchObject({ code: -32001, dataCode: 'TOOL_TIMEOUT' });
    expect(timedOut.message).toContain('MCP_TOOL_TIMEOUT_MS');
    // The command was stopped in the sandbox too, not left running behind the answer.
    await waitFor('the timed-out command to end in the sandbox', async () => !(await sh('ps -eo args')).includes('sleep 61'));
    // The server is still there for the next call.
    expect(textOf(await client.callTool({ name: 'run_command', arguments: { command: 'echo after' } }))).toContain('after');
  });

  it('should refuse a missing, revoked, unbound or other-team token and a browser session with H\'s error shape', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const nobody = await postMcp(stack.url, init);
    expect({ status: nobody.status, code: nobody.json?.error?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });

    const teamWide = await createToken(f.member, f.teamId, { name: 'team-wide', scopes: ['read', 'write'] });
    const unbound = await postMcp(stack.url, init, { authorization: `Bearer ${teamWide.secret}` });
    expect({ status: unbound.status, code: unbound.json?.error?.code }).toEqual({ status: 403, code: 'TOKEN_NOT_WORKSPACE_BOUND' });
    expect(unbound.json.error.message).toContain('not bound to a workspace');
    // The SDK client sees the refusal at connect.
    await expect(mcpClient(stack.url, teamWide.secret)).rejects.toMatchObject({ code: 403, message: expect.stringContaining('TOKEN_NOT_WORKSPACE_BOUND') });

    // A token row bound to a workspace of another team (the token API refuses to make one).
    const otherWorkspace = await createWorkspace(f.outsider, f.outsiderTeamId, 'mcp-other');
    const crossed = await createToken(f.member, f.teamId, { name: 'crossed', scopes: ['read'], workspaceId: f.workspaceId });
    await sql('UPDATE "ApiToken" SET "workspaceId" = $1 WHERE id = $2', [otherWorkspace, crossed.id]);
    const other = await postMcp(stack.url, init, { authorization: `Bearer ${crossed.secret}` });
    expect({ status: other.status, code: other.json?.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });

    const revoked = await createToken(f.member, f.teamId, { name: 'revoked', scopes: ['read'], workspaceId: f.workspaceId });
    expect((await f.member.client.delete(`/api/v1/teams/${f.teamId}/tokens/${revoked.id}`)).status).toBe(204);
    const gone = await postMcp(stack.url, init, { authorization: `Bearer ${revoked.secret}` });
    expect({ status: gone.status, code: gone.json?.error?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });

    const browser = await f.member.client.post('/api/mcp', JSON.parse(init));
    expect({ status: browser.status, code: browser.body?.error?.code }).toEqual({ status: 403, code: 'TOKEN_NOT_WORKSPACE_BOUND' });

    // Still usable by the bound token; GET (no event stream here) answers 405.
    expect((await bearerClient(stack.url, writer.secret).get('/api/mcp')).status).toBe(405);
  });

  it('should list and call the tools from the MCP Inspector CLI', async () => {
    const base = [INSPECTOR, `${stack.url}/api/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${reader.secret}`];
    const list = await run(process.execPath, [...base, '--method', 'tools/list'], { timeout: 60_000, cwd: INSPECTOR_CWD });
    expect((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(MCP_SERVER_TOOL_NAMES);
    const call = await run(process.execPath, [...base, '--method', 'tools/call', '--tool-name', 'read_file', '--tool-arg', 'path=README.md'], { timeout: 60_000, cwd: INSPECTOR_CWD });
    expect(JSON.parse(call.stdout)).toMatchObject({ content: [{ type: 'text', text: '1\t# mcp project\n2\tchanged by mcp' }], isError: false });
  });
});
