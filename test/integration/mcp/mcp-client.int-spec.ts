import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from 'pg';
import { z } from 'zod';
import { parentToolRegistry } from '@h/agent';
import { startScriptedModelServer } from '@h/scripted-model';
import type { TestStack } from '../../support/api-harness';
import { waitFor } from '../../support/api-harness';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  scenario,
  seedWorkspace,
  startIsolatedStack,
  startRun,
  waitForPendingPermission,
  waitForRunStatus,
  type RunWorld,
  type ScriptedServer,
} from '../../support/run-fixtures';
import { addPerson } from '../api/team-fixture';
import { recordSecrets } from '../security/secret-registry';

// External MCP servers used by the agent, end to end: the real api and worker, the scripted model,
// the real Docker sandbox. A stdio server (a plain JSON-RPC program put into the workspace) runs
// INSIDE the sandbox with the sandbox's node; an http server (the official SDK's Streamable HTTP
// server on loopback) is reached only through the workspace's egress proxy, with a bearer header
// that is stored encrypted and never answered.
const NOTES_SERVER = readFileSync(path.join(__dirname, 'fixtures/notes-mcp-server.js'), 'utf8');
const HTTP_TOKEN = `mcp-secret-${Math.random().toString(36).slice(2)}-token`;
// The main agent's own tools (core tools without browser ones, then the delegate tools).
const CORE_NAMES = parentToolRegistry().definitions().map((t) => t.name);

const askScenario = scenario('mcp-stdio-ask', 'mcp: look up the deploy note', [
  { expect: { lastMessageRole: 'user', toolsInclude: ['mcp__notes__lookup_note', 'mcp__notes__where_am_i'] }, toolCalls: [{ name: 'mcp__notes__lookup_note', arguments: { key: 'deploy' } }] },
  { expect: { lastMessageRole: 'tool', lastMessageContains: 'ship on fridays' }, toolCalls: [{ name: 'mcp__notes__where_am_i', arguments: {} }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'cwd=/workspace' }),
]);
const allowScenario = scenario('mcp-stdio-allow', 'mcp: where does the server run', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'mcp__notes__where_am_i', arguments: {} }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'cwd=/workspace' }),
]);
const httpScenario = scenario('mcp-http', 'mcp: ask the remote server', [
  { expect: { lastMessageRole: 'user', toolsInclude: ['mcp__remote__echo'] }, toolCalls: [{ name: 'mcp__remote__echo', arguments: { text: 'hello through egress' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'remote says: hello through egress' }),
]);

const offlineScenario = scenario('mcp-http-offline', 'mcp: the remote server while offline', [{ expect: { lastMessageRole: 'user' }, text: 'Nothing to do without it.' }]);

let model: ScriptedServer;
let stack: TestStack;
let remote: http.Server;
let remotePort: number;
let socketDir: string;
const remoteAuth: string[] = [];

/** The SDK's own Streamable HTTP server (stateless), refusing requests without the bearer token. */
function startRemoteMcpServer(): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    remoteAuth.push(req.headers.authorization ?? '');
    if (req.headers.authorization !== `Bearer ${HTTP_TOKEN}`) {
      res.writeHead(401).end('bad token');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const mcp = new McpServer({ name: 'remote-fixture', version: '1.0.0' });
    mcp.registerTool('echo', { description: 'Echoes a text.', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `remote says: ${text}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  recordSecrets(HTTP_TOKEN); // the log scan (security/log-scan.int-spec.ts) looks for it too
  remote = await startRemoteMcpServer();
  remotePort = (remote.address() as AddressInfo).port;
  socketDir = mkdtempSync(path.join(os.tmpdir(), 'h-mcp-egress-'));
  model = await startScriptedModelServer({ demo: false, scenarios: [askScenario, allowScenario, httpScenario, offlineScenario] });
  stack = await startIsolatedStack({
    DEEPSEEK_BASE_URL: model.url,
    H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS: 'true',
    EGRESS_PORTS: String(remotePort),
    EGRESS_SOCKET_DIR: socketDir,
    MCP_CONNECT_TIMEOUT_MS: '20000',
  });
}, 15 * 60_000);

afterAll(async () => {
  await stack?.close();
  await model?.close();
  await new Promise((r) => remote?.close(r));
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
});

afterEach(() => {
  const failures = [...model.failures];
  model.reset();
  expect(failures).toEqual([]);
});

/** The tool names of the model's first request with tools since the last reset. */
const firstToolNames = (): string[] => (model.requests.find((r: any) => Array.isArray(r.body?.tools))?.body.tools ?? []).map((t: any) => t.function.name);

const servers = (world: RunWorld) => `/api/v1/workspaces/${world.workspaceId}/mcp-servers`;

async function dbRows(workspaceId: string): Promise<any[]> {
  const db = new Client({ connectionString: stack.config.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query('SELECT *, "McpServer"::text AS whole FROM "McpServer" WHERE "workspaceId" = $1', [workspaceId])).rows;
  } finally {
    await db.end();
  }
}

describe('external MCP servers used by the agent', () => {
  it('should run a stdio server in the sandbox, offer its tools after the core tools, ask before a call (rule ask) and give tool.end the real answer; a broken server is an error, not a failed run', async () => {
    const world = await createRunWorld(stack, 'mcp-stdio');
    await seedWorkspace(stack, world, { 'tools/notes-server.js': NOTES_SERVER, 'notes/deploy.txt': 'ship on fridays\n' });
    const notes = await world.client.post(servers(world), { name: 'notes', transport: 'stdio', command: 'node', args: ['tools/notes-server.js'], env: { NOTE_PREFIX: 'note: ' } });
    expect(notes.status).toBe(201);
    expect(notes.body).toMatchObject({ name: 'notes', transport: 'stdio', approval: 'ask', enabled: true, status: { state: 'unknown' } });
    const broken = await world.client.post(servers(world), { name: 'broken', transport: 'stdio', command: 'node', args: ['tools/missing.js'] });
    expect(broken.status).toBe(201);

    const { sessionId, runId } = await startRun(world, 'mcp: look up the deploy note', { permissionMode: 'approve' });
    // ask → a permission card for the namespaced tool, with the model's input.
    const first = await waitForPendingPermission(world.client, sessionId, runId, 90_000);
    expect(first).toMatchObject({ toolName: 'mcp__notes__lookup_note', input: { key: 'deploy' } });
    expect((await world.client.post(`/api/v1/permissions/${first.id}`, { behavior: 'allow' })).status).toBe(200);
    const second = await waitForPendingPermission(world.client, sessionId, runId, 90_000);
    expect(second.toolName).toBe('mcp__notes__where_am_i');
    expect((await world.client.post(`/api/v1/permissions/${second.id}`, { behavior: 'allow' })).status).toBe(200);
    const done = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 90_000);
    expect(done.status).toBe('completed');

    const events = await allEvents(world.client, sessionId);
    const ends = events.filter((e) => e.type === 'tool.end' && e.data.name.startsWith('mcp__'));
    expect(ends.map((e) => [e.data.name, e.data.isError])).toEqual([
      ['mcp__notes__lookup_note', false],
      ['mcp__notes__where_am_i', false],
    ]);
    // The server's real answers, from inside the sandbox: the workspace file, its env, /workspace as cwd.
    expect(ends[0].data.result).toBe('note: ship on fridays (read from /workspace/notes/deploy.txt)');
    expect(ends[1].data.result).toMatch(/^cwd=\/workspace host=\S+ uid=\d+$/);
    expect(ends[1].data.result).not.toContain(os.hostname());
    const start = events.find((e) => e.type === 'tool.start' && e.data.name === 'mcp__notes__lookup_note');
    expect(start.data.category).toBe('command');
    // The broken server: one error event in the run (after run.started), and the run went on.
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].data.code).toBe('MCP_SERVER_UNAVAILABLE');
    expect(errors[0].data.message).toContain('"broken"');
    expect(errors[0].seq).toBeGreaterThan(events.find((e) => e.type === 'run.started').seq);

    // Tool definitions: the core tools first, unchanged, then the server's, the same on every request.
    const requests = model.requests.filter((r: any) => Array.isArray(r.body?.tools));
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const names = requests[0].body.tools.map((t: any) => t.function.name);
    expect(names).toEqual([...CORE_NAMES, 'mcp__notes__lookup_note', 'mcp__notes__where_am_i']);
    for (const r of requests) expect(JSON.stringify(r.body.tools)).toBe(JSON.stringify(requests[0].body.tools));
    expect(requests[0].body.tools.find((t: any) => t.function.name === 'mcp__notes__lookup_note').function).toMatchObject({
      description: '[MCP server "notes", tool "lookup_note"] Reads one note of the workspace by key.',
      parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    });

    // The status the IDE shows is what the run found.
    const listed = await world.client.get(servers(world));
    const byName = Object.fromEntries(listed.body.items.map((s: any) => [s.name, s.status]));
    expect(byName.notes).toMatchObject({ state: 'connected', toolCount: 2, tools: ['mcp__notes__lookup_note', 'mcp__notes__where_am_i'], message: null });
    expect(byName.broken.state).toBe('error');
    expect(byName.broken.message).toContain('"broken"');
  });

  it('should run the tools of a server whose rule is allow without asking, and leave a disabled server out', async () => {
    const world = await createRunWorld(stack, 'mcp-allow');
    await seedWorkspace(stack, world, { 'tools/notes-server.js': NOTES_SERVER });
    const notes = await world.client.post(servers(world), { name: 'notes', transport: 'stdio', command: 'node', args: ['tools/notes-server.js'], approval: 'allow' });
    expect(notes.status).toBe(201);
    const off = await world.client.post(servers(world), { name: 'off', transport: 'stdio', command: 'node', args: ['tools/notes-server.js'], enabled: false });
    expect(off.body.status.state).toBe('disabled');
    expect((await world.client.post(`${servers(world)}/${off.body.id}/check`)).body.error.code).toBe('CONFLICT');

    // "Check now", before any run: the worker connects in the sandbox and records what it found.
    const checking = await world.client.post(`${servers(world)}/${notes.body.id}/check`);
    expect([checking.status, checking.body.status.state]).toEqual([202, 'checking']);
    const checked = await waitFor('the check to end', async () => {
      const res = await world.client.get(`${servers(world)}/${notes.body.id}`);
      return res.body.status.state === 'checking' ? null : res.body.status;
    });
    expect(checked).toMatchObject({ state: 'connected', toolCount: 2, tools: ['mcp__notes__lookup_note', 'mcp__notes__where_am_i'] });

    const { sessionId, runId } = await startRun(world, 'mcp: where does the server run', { permissionMode: 'approve' });
    const done = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled', 'waiting_permission'], 90_000);
    expect(done.status).toBe('completed');
    const events = await allEvents(world.client, sessionId);
    expect(events.filter((e) => e.type === 'permission.requested')).toEqual([]);
    expect(events.find((e) => e.type === 'tool.end' && e.data.name === 'mcp__notes__where_am_i').data.result).toContain('cwd=/workspace');
    const tools = firstToolNames();
    expect(tools.filter((n: string) => n.startsWith('mcp__'))).toEqual(['mcp__notes__where_am_i', 'mcp__notes__lookup_note'].sort());
  });

  it('should reach an http server only through the egress proxy with its encrypted header, which no response, row or sandbox holds in plaintext', async () => {
    const world = await createRunWorld(stack, 'mcp-http');
    const url = `http://localhost:${remotePort}/mcp`;
    const created = await world.client.post(servers(world), { name: 'remote', transport: 'http', url, headers: { Authorization: `Bearer ${HTTP_TOKEN}` }, approval: 'allow' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ transport: 'http', url, headerNames: ['Authorization'], command: null });
    expect(created.text).not.toContain(HTTP_TOKEN);
    const listed = await world.client.get(servers(world));
    expect(listed.text).not.toContain(HTTP_TOKEN);
    expect((await world.client.get(`${servers(world)}/${created.body.id}`)).text).not.toContain(HTTP_TOKEN);
    // At rest: sealed bytes, no column (nor the row as text) holds the token.
    const [row] = await dbRows(world.workspaceId);
    expect(row.ciphertext).toBeInstanceOf(Buffer);
    expect(row.ciphertext.includes(Buffer.from(HTTP_TOKEN))).toBe(false);
    expect(row.ciphertext.includes(Buffer.from('Authorization'))).toBe(false);
    expect(row.whole).not.toContain(HTTP_TOKEN);

    // Network access off: the server is not reached at all (an error in the run, which goes on).
    const before = remoteAuth.length;
    const offRun = await startRun(world, 'mcp: the remote server while offline', { permissionMode: 'bypass' });
    const offDone = await waitForRunStatus(world.client, offRun.runId, ['completed', 'failed', 'cancelled'], 90_000);
    expect(offDone.status).toBe('completed');
    expect(firstToolNames()).toEqual(CORE_NAMES);
    const offEvents = await allEvents(world.client, offRun.sessionId);
    expect(offEvents.find((e) => e.type === 'error' && e.data.code === 'MCP_SERVER_UNAVAILABLE').data.message).toContain('network access is off');
    expect(remoteAuth.length).toBe(before);

    // With network access on and the host allowed, through the proxy (logged as an egress connection).
    const owner = world.client;
    expect((await owner.patch(`/api/v1/workspaces/${world.workspaceId}`, { networkEnabled: true, allowedHosts: ['localhost'] })).status).toBe(200);
    const { sessionId, runId } = await startRun(world, 'mcp: ask the remote server', { permissionMode: 'approve' });
    const done = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled', 'waiting_permission'], 90_000);
    expect(done.status).toBe('completed');
    const events = await allEvents(world.client, sessionId);
    expect(events.find((e) => e.type === 'tool.end' && e.data.name === 'mcp__remote__echo').data).toMatchObject({ result: 'remote says: hello through egress', isError: false });
    expect(remoteAuth.slice(before).every((a) => a === `Bearer ${HTTP_TOKEN}`)).toBe(true);
    expect(JSON.stringify(events)).not.toContain(HTTP_TOKEN);
    const egress = await waitFor('the egress log shows the MCP connection', async () => {
      const log = await owner.get(`/api/v1/workspaces/${world.workspaceId}/egress-log`);
      return log.body.items?.find((e: any) => e.host === 'localhost' && e.port === remotePort && e.allowed);
    });
    expect(egress).toBeTruthy();
    const status = (await owner.get(servers(world))).body.items[0].status;
    expect(status).toMatchObject({ state: 'connected', tools: ['mcp__remote__echo'] });
    // The api's and the worker's log (debug level) never held it.
    expect(readFileSync(stack.logFile, 'utf8')).not.toContain(HTTP_TOKEN);
  });

  it('should refuse bad configurations with a clear 4xx code, and let only members with write rights change them', async () => {
    const world = await createRunWorld(stack, 'mcp-bad');
    const post = (body: unknown) => world.client.post(servers(world), body);
    const cases: [unknown, number, string, string?][] = [
      [{ name: 'a', transport: 'stdio' }, 400, 'INVALID_MCP_SERVER', 'command'],
      [{ name: 'a', transport: 'stdio', command: 'node', url: 'https://x.example.org/mcp' }, 400, 'INVALID_MCP_SERVER', 'url'],
      [{ name: 'a', transport: 'stdio', command: 'node', headers: { Authorization: 'x' } }, 400, 'INVALID_MCP_SERVER', 'headers'],
      [{ name: 'a', transport: 'stdio', command: 'node', env: { '1BAD': 'x' } }, 400, 'INVALID_MCP_SERVER', 'env'],
      [{ name: 'a', transport: 'http' }, 400, 'INVALID_MCP_SERVER', 'url'],
      [{ name: 'a', transport: 'http', url: 'https://user:pw@x.example.org/mcp' }, 400, 'INVALID_MCP_SERVER', 'url'],
      [{ name: 'a', transport: 'http', url: 'ftp://x.example.org/mcp' }, 400, 'INVALID_MCP_SERVER', 'url'],
      [{ name: 'a', transport: 'http', url: 'https://x.example.org/mcp', command: 'node' }, 400, 'INVALID_MCP_SERVER', 'command'],
      [{ name: 'a', transport: 'http', url: 'https://x.example.org/mcp', headers: { Host: 'evil' } }, 400, 'INVALID_MCP_SERVER', 'headers'],
      [{ name: 'Bad_Name', transport: 'stdio', command: 'node' }, 400, 'VALIDATION_FAILED'],
      [{ name: 'a', transport: 'ws', command: 'node' }, 400, 'VALIDATION_FAILED'],
      [{ name: 'a', transport: 'stdio', command: 'node', approval: 'never' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await post(body);
      expect([JSON.stringify(body), res.status, res.body.error?.code]).toEqual([JSON.stringify(body), status, code]);
      if (field) expect(res.body.error.message).toContain(field);
    }
    expect((await post({ name: 'dup', transport: 'stdio', command: 'node' })).status).toBe(201);
    const dup = await post({ name: 'dup', transport: 'stdio', command: 'node' });
    expect([dup.status, dup.body.error.code]).toEqual([409, 'CONFLICT']);
    const id = (await world.client.get(servers(world))).body.items[0].id;
    // Switching a stdio server to http without a url is refused; a complete switch drops the stdio fields.
    expect((await world.client.patch(`${servers(world)}/${id}`, { transport: 'http' })).body.error.code).toBe('INVALID_MCP_SERVER');
    const switched = await world.client.patch(`${servers(world)}/${id}`, { transport: 'http', url: 'https://x.example.org/mcp' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ transport: 'http', command: null, args: [], env: {} });
    expect((await world.client.get(`/api/v1/workspaces/${world.workspaceId}/mcp-servers/00000000-0000-4000-8000-000000000000`)).status).toBe(404);

    const viewer = await addPerson(stack.url, { client: world.client, userId: world.userId } as any, world.teamId, 'viewer', 'mcp-viewer');
    expect((await viewer.client.get(servers(world))).status).toBe(200);
    const refused = await viewer.client.post(servers(world), { name: 'v', transport: 'stdio', command: 'node' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await viewer.client.delete(`${servers(world)}/${id}`)).status).toBe(403);
    expect((await world.client.delete(`${servers(world)}/${id}`)).status).toBe(204);
  });
});
