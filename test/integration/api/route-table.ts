import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TokenScope } from '@h/contracts';
import { HttpClient, HttpResponse, randomEmail, TEST_PASSWORD } from '../../support/http-client';
import { TEST_METRICS_TOKEN } from '../../support/test-env';
import { startGitServer, type GitServer } from '../../support/git-server';
import { makeTar } from '../import/archive-fixture';
import { docker, dockerExec } from '../sandbox/sandbox-test-kit';
import { recordSecrets } from '../security/secret-registry';
import { addPerson, createTeam, createToken, createWorkspace, invite, loggedInClient, openStream, Person, Role, ROLES_LOW_TO_HIGH, sql, TeamFixture } from './team-fixture';

// Every route the api serves, with who may call it and how to build a valid request. roles,
// bad-input and openapi specs compare this table with /api/docs-json in both directions, so a new
// route fails the suite until it is added here with its minimum role; scopes.int-spec checks its
// token scope (say `scope: 'run'` where the route only drives the agent, as its @Access does).

export type RouteAccess =
  | { kind: 'public' }
  /** Any signed-in user or API token (with `scope`, default read). */
  | { kind: 'authenticated'; scope?: TokenScope }
  /** Signed-in users only; API tokens get 403 TOKEN_NOT_ALLOWED. */
  | { kind: 'user-only' }
  /**
   * The instance admin pages (@InstanceAdmin): an instance admin's browser session succeeds (the
   * fixture's `instanceAdmin`); API tokens get 403 TOKEN_NOT_ALLOWED, everyone else signed in 403
   * INSTANCE_ADMIN_ONLY, team owners included.
   */
  | { kind: 'instance-admin' }
  /**
   * Touches one team's data: non-members get 404, members below `minRole` get 403. An API token
   * needs `scope`; without one, the role's usual scope (DEFAULT_SCOPE: viewer → read, member →
   * write, admin and owner → admin). Routes that only drive the agent say `run`.
   */
  | { kind: 'team'; minRole: Role; scope?: TokenScope; userOnly?: boolean; why?: string }
  /**
   * An h2c task route (`/v1/task*`): API tokens only (Bearer or Basic) holding `scope`, the team
   * taken from the token; errors in h2c's `{ error: "<code>" }`. A signed-in browser gets 401, another
   * team's token 404 (or `outsider`), a token acting below `minRole` 403. `prepare` returns the actor's token client.
   */
  | { kind: 'h2c'; minRole: Role; scope: TokenScope; outsider?: { status: number; code: string } }
  /**
   * The MCP endpoint (`/api/mcp`, libs/mcp): API tokens bound to one workspace, holding `scope` (each
   * tool needs its own scope on top, tested in test/integration/mcp). Nobody gets 401
   * UNAUTHENTICATED; a signed-in browser and a team-wide token 403 TOKEN_NOT_WORKSPACE_BOUND; refusals
   * past authentication are JSON-RPC errors whose `error.data.code` is H's code. `prepare` returns the
   * actor's bound token client.
   */
  | { kind: 'mcp'; scope: TokenScope };

/** The scope a team route needs when its entry names none (the rule @Access applies). */
export const DEFAULT_SCOPE: Record<Role, TokenScope> = { viewer: 'read', member: 'write', admin: 'admin', owner: 'admin' };

/** The token scope a route needs, or null when tokens cannot use it (public, user-only). */
export function requiredScope(access: RouteAccess): TokenScope | null {
  if (access.kind === 'authenticated') return access.scope ?? 'read';
  if (access.kind === 'team' && !access.userOnly) return access.scope ?? DEFAULT_SCOPE[access.minRole];
  if (access.kind === 'h2c' || access.kind === 'mcp') return access.scope;
  return null;
}

export interface RouteRequest {
  params: Record<string, string>;
  body?: unknown;
  /** A raw (non-JSON) body sent as is, for RAW_BODY_ROUTES (an ASCII tar as a string); headers give its type. */
  rawBody?: string;
  query?: string;
  /** Request headers beyond the client's own (e.g. If-Match for a file write). */
  headers?: Record<string, string>;
  /** Send the request with this client instead of the actor's (e.g. a throwaway session for logout). */
  client?: HttpClient;
}

export interface RouteSpec {
  access: RouteAccess;
  /** Status of a successful call. */
  success: number;
  /** An endless text/event-stream: read the status and headers, then hang up. */
  stream?: true;
  /**
   * Builds one valid request made by `actor` (null: anonymous). Routes that destroy or change
   * something get a fresh target on every call, so the order of requests never matters.
   */
  prepare(f: TeamFixture, actor: Person | null): Promise<RouteRequest>;
}

const team = (f: TeamFixture) => ({ teamId: f.teamId });
const PROVIDER_KEY = () => {
  const key = `sk-route-table-${randomUUID()}`;
  recordSecrets(key);
  return key;
};

async function expectCreated(res: { status: number; text: string; body: { id: string } }, status: number, what: string): Promise<string> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res.body.id;
}

/** A new agent session in the fixture's workspace, made by the owner. */
export async function newSession(f: TeamFixture): Promise<string> {
  const res = await f.owner.client.post(`/api/v1/workspaces/${f.workspaceId}/sessions`, { title: 'route table' });
  return expectCreated(res, 201, 'create session');
}

/** A model preset of the fixture's team, made by the owner. */
export async function newPreset(f: TeamFixture): Promise<string> {
  const res = await f.owner.client.post(`/api/v1/teams/${f.teamId}/model-presets`, { name: `route table ${randomUUID()}`, model: 'deepseek-v4-pro' });
  return expectCreated(res, 201, 'create model preset');
}

/** A loopback server answering `GET /v1/models` like an OpenAI-compatible one (started once, unref'd). */
let modelsServer: Promise<string> | null = null;
function modelsServerUrl(): Promise<string> {
  modelsServer ??= new Promise((resolve) => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'route-table-model', max_model_len: 8192 }] }));
    });
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    });
  });
  return modelsServer;
}

const sharedProviders = new WeakMap<TeamFixture, Promise<string>>();
/**
 * One custom provider per fixture for the routes that leave it in place (read, rename, fetch its
 * models): the team keeps at most CUSTOM_PROVIDERS_PER_TEAM, and these specs call each route often.
 */
const sharedCustomProvider = (f: TeamFixture): Promise<string> => {
  if (!sharedProviders.has(f)) sharedProviders.set(f, newCustomProvider(f));
  return sharedProviders.get(f) as Promise<string>;
};

/** Deletes the fixture team's providers but the shared one, so a create always has room. */
async function makeRoomForProviders(f: TeamFixture): Promise<void> {
  const keep = await sharedCustomProvider(f);
  const list = await f.owner.client.get(`/api/v1/teams/${f.teamId}/providers`);
  for (const p of (list.body.items ?? []) as { id: string }[]) {
    if (p.id !== keep) await f.owner.client.delete(`/api/v1/teams/${f.teamId}/providers/custom/${p.id}`);
  }
}

/** A custom provider of the fixture's team (on the loopback models server), made by the owner. */
export async function newCustomProvider(f: TeamFixture): Promise<string> {
  const res = await f.owner.client.post(`/api/v1/teams/${f.teamId}/providers`, {
    name: `route table ${randomUUID()}`,
    baseUrl: await modelsServerUrl(),
    models: [{ id: 'route-table-model', contextWindow: 8192 }],
  });
  return expectCreated(res, 201, 'create custom provider');
}

const mcpServerName = () => `rt-${randomUUID().slice(0, 8)}`;

/** A stdio MCP server of the fixture's workspace, made by the owner (never connected here: no worker). */
export async function newMcpServer(f: TeamFixture): Promise<string> {
  const res = await f.owner.client.post(`/api/v1/workspaces/${f.workspaceId}/mcp-servers`, { name: mcpServerName(), transport: 'stdio', command: 'node', args: ['server.js'] });
  return expectCreated(res, 201, 'create MCP server');
}

const sharedMcpServers = new WeakMap<TeamFixture, Promise<string>>();
const sharedMcpServer = (f: TeamFixture): Promise<string> => {
  if (!sharedMcpServers.has(f)) sharedMcpServers.set(f, newMcpServer(f));
  return sharedMcpServers.get(f) as Promise<string>;
};

/** Deletes the fixture workspace's MCP servers but the shared one, so a create always has room. */
async function makeRoomForMcpServers(f: TeamFixture): Promise<void> {
  const keep = await sharedMcpServer(f);
  const list = await f.owner.client.get(`/api/v1/workspaces/${f.workspaceId}/mcp-servers`);
  for (const s of (list.body.items ?? []) as { id: string }[]) {
    if (s.id !== keep) await f.owner.client.delete(`/api/v1/workspaces/${f.workspaceId}/mcp-servers/${s.id}`);
  }
}

/** A project memory of the fixture's workspace, remembered by the owner (members see and edit it). */
export async function newMemory(f: TeamFixture): Promise<string> {
  const res = await f.owner.client.post(`/api/v1/workspaces/${f.workspaceId}/memories`, { scope: 'project', key: `route-${randomUUID()}`, content: 'Two spaces, no tabs' });
  return expectCreated(res, 201, 'remember');
}

const sharedMemories = new WeakMap<TeamFixture, Promise<string>>();
const sharedMemory = (f: TeamFixture): Promise<string> => {
  if (!sharedMemories.has(f)) sharedMemories.set(f, newMemory(f));
  return sharedMemories.get(f) as Promise<string>;
};

/** A queued run (no worker takes it) in a new session. */
export async function newRun(f: TeamFixture): Promise<{ sessionId: string; runId: string }> {
  const sessionId = await newSession(f);
  const res = await f.owner.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'hello from the route table' });
  return { sessionId, runId: await expectCreated(res, 202, 'post message') };
}

/**
 * A pending permission request. Only a worker's agent asks for one, and these stacks run no
 * agent, so the row is written the way the worker writes it.
 */
export async function newPermission(f: TeamFixture): Promise<string> {
  const { sessionId, runId } = await newRun(f);
  const [row] = await sql<{ id: string }>(
    `INSERT INTO "PermissionRequest" (id, "sessionId", "runId", "toolCallId", "toolName", input)
     VALUES (gen_random_uuid(), $1, $2, $3, 'run_command', '{"command":"ls"}') RETURNING id`,
    [sessionId, runId, `call-${randomUUID()}`],
  );
  return row.id;
}

/** A stored full tool output (written as the worker's output store writes it) in the shared session. */
const sharedOutputs = new WeakMap<TeamFixture, Promise<{ sessionId: string; outputId: number }>>();
function sharedOutput(f: TeamFixture): Promise<{ sessionId: string; outputId: number }> {
  if (!sharedOutputs.has(f)) {
    sharedOutputs.set(
      f,
      shared(f).then(async ({ sessionId, runId }) => {
        await sql(
          `INSERT INTO "ToolOutput" (id, "sessionId", number, "runId", "callId", label, bytes, truncated, content)
           VALUES (gen_random_uuid(), $1, 1, $2, 'call-route-table', 'echo route table', 12, false, 'route table\n')`,
          [sessionId, runId],
        );
        return { sessionId, outputId: 1 };
      }),
    );
  }
  return sharedOutputs.get(f) as Promise<{ sessionId: string; outputId: number }>;
}

const sharedSessions = new WeakMap<TeamFixture, Promise<{ sessionId: string; runId: string }>>();
/** One session with one run, shared by the read-only routes. */
const shared = (f: TeamFixture) => {
  if (!sharedSessions.has(f)) sharedSessions.set(f, newRun(f));
  return sharedSessions.get(f) as Promise<{ sessionId: string; runId: string }>;
};

const freshFilePath = (tag: string) => `route-table/${tag}-${randomUUID().slice(0, 8)}.txt`;

/** A new file in the fixture's workspace (its sandbox starts on the first call), made by the owner. */
export async function newFile(f: TeamFixture, tag: string): Promise<string> {
  const path = freshFilePath(tag);
  const res = await f.owner.client.post(`/api/v1/workspaces/${f.workspaceId}/files?path=${encodeURIComponent(path)}`, { type: 'file', content: 'route table\n' });
  if (res.status !== 201) throw new Error(`create file: expected 201, got ${res.status} ${res.text}`);
  return path;
}

const sharedRemotes = new WeakMap<TeamFixture, Promise<string>>();
/** A workspace with a git remote set by the owner (no clone: the remote is never contacted here). */
const workspaceWithRemote = (f: TeamFixture) => {
  if (!sharedRemotes.has(f)) {
    sharedRemotes.set(
      f,
      (async () => {
        const id = await createWorkspace(f.owner, f.teamId, 'route-table-remote');
        const res = await f.owner.client.put(`/api/v1/workspaces/${id}/git/remote`, { url: 'https://git.example.org/team/route-table.git', token: GIT_TOKEN() });
        if (res.status !== 200) throw new Error(`set git remote: expected 200, got ${res.status} ${res.text}`);
        return id;
      })(),
    );
  }
  return sharedRemotes.get(f) as Promise<string>;
};
const GIT_TOKEN = () => {
  const token = `git-token-route-table-${randomUUID()}`;
  recordSecrets(token);
  return token;
};

let gitServer: Promise<GitServer> | null = null;
const sharedGitWorkspaces = new WeakMap<TeamFixture, Promise<string>>();
/**
 * A workspace whose repository has one commit on main, with a remote on a loopback git server
 * that already has it: fetch, pull and push all succeed (up to date) whoever calls, in any order.
 */
const workspaceWithGit = (f: TeamFixture) => {
  if (!sharedGitWorkspaces.has(f)) {
    sharedGitWorkspaces.set(
      f,
      (async () => {
        gitServer ??= startGitServer({ unref: true });
        const server = await gitServer;
        recordSecrets(server.token);
        const repo = `rt-${randomUUID().slice(0, 8)}`;
        await server.createEmptyRepo(repo);
        const id = await createWorkspace(f.owner, f.teamId, 'route-table-git');
        await newFileIn(f, id, 'started.txt'); // starts the sandbox
        const [container] = await docker.listContainers({ filters: { name: [`ws-${id}`] } });
        await dockerExec(container.Names[0].replace(/^\//, ''), ['sh', '-c', 'cd /workspace && git init -q -b main && git add -A && git -c user.name=RT -c user.email=rt@example.org commit -q -m init']);
        const res = await f.owner.client.put(`/api/v1/workspaces/${id}/git/remote`, { url: server.url(repo), token: server.token });
        if (res.status !== 200) throw new Error(`set git remote: expected 200, got ${res.status} ${res.text}`);
        const pushed = await f.owner.client.post(`/api/v1/workspaces/${id}/git/push`, { setUpstream: true });
        if (pushed.status !== 200) throw new Error(`git push: expected 200, got ${pushed.status} ${pushed.text}`);
        return id;
      })(),
    );
  }
  return sharedGitWorkspaces.get(f) as Promise<string>;
};

async function newFileIn(f: TeamFixture, workspaceId: string, path: string): Promise<void> {
  const res = await f.owner.client.post(`/api/v1/workspaces/${workspaceId}/files?path=${encodeURIComponent(path)}`, { type: 'file', content: 'x\n' });
  if (res.status !== 201) throw new Error(`create file: expected 201, got ${res.status} ${res.text}`);
}

const sharedFiles = new WeakMap<TeamFixture, Promise<string>>();
/** One file shared by the read-only file routes. */
const sharedFile = (f: TeamFixture) => {
  if (!sharedFiles.has(f)) sharedFiles.set(f, newFile(f, 'shared'));
  return sharedFiles.get(f) as Promise<string>;
};

const sharedRepos = new WeakMap<TeamFixture, Promise<void>>();
/** The fixture's workspace as a git repository with one commit (Source Control routes), made by the owner. */
const sharedRepo = (f: TeamFixture) => {
  if (!sharedRepos.has(f)) {
    sharedRepos.set(
      f,
      (async () => {
        const git = (route: string) => `/api/v1/workspaces/${f.workspaceId}/git/${route}`;
        const path = await newFile(f, 'repo');
        for (const [route, body, status] of [
          ['init', {}, 200],
          ['stage', { paths: [path] }, 200],
          ['commit', { message: 'route table' }, 201],
        ] as const) {
          const res = await f.owner.client.post(git(route), body);
          if (res.status !== status) throw new Error(`git ${route}: expected ${status}, got ${res.status} ${res.text}`);
        }
      })(),
    );
  }
  return sharedRepos.get(f) as Promise<void>;
};

/** A request in the shared repository (made first). */
async function inRepo(f: TeamFixture, rest: Omit<RouteRequest, 'params'> = {}): Promise<RouteRequest> {
  await sharedRepo(f);
  return { params: { id: f.workspaceId }, ...rest };
}

/** A new file in the shared repository, staged by the owner. */
async function newStagedFile(f: TeamFixture, tag: string): Promise<string> {
  await sharedRepo(f);
  const path = await newFile(f, tag);
  const res = await f.owner.client.post(`/api/v1/workspaces/${f.workspaceId}/git/stage`, { paths: [path] });
  if (res.status !== 200) throw new Error(`git stage: expected 200, got ${res.status} ${res.text}`);
  return path;
}

function roleOf(f: TeamFixture, actor: Person | null): Role | null {
  if (!actor) return null;
  return ROLES_LOW_TO_HIGH.find((r) => f.byRole(r).userId === actor.userId) ?? null;
}

const h2cTokens = new WeakMap<Person, Promise<string>>();
/** A token of `actor` in its own team (the outsider's is of the outsider's team), as an h2c client holds one. */
export function h2cTokenOf(f: TeamFixture, actor: Person): Promise<string> {
  if (!h2cTokens.has(actor)) {
    const teamId = actor === f.outsider ? f.outsiderTeamId : f.teamId;
    // Viewers cannot make tokens: the viewer's is a member's read-only token, which acts as a viewer.
    const made = actor === f.viewer ? createToken(f.member, teamId, { name: 'h2c', scopes: ['read'] }) : createToken(actor, teamId, { name: 'h2c', scopes: ['read', 'write'] });
    h2cTokens.set(actor, made.then((t) => t.secret));
  }
  return h2cTokens.get(actor) as Promise<string>;
}

/** The client an h2c route is called with: the actor's API token, or nobody. */
async function h2cClient(f: TeamFixture, actor: Person | null): Promise<HttpClient> {
  if (!actor) return new HttpClient(f.url);
  const client = new HttpClient(f.url);
  client.bearer = await h2cTokenOf(f, actor);
  return client;
}

const mcpTokens = new WeakMap<Person, Promise<string>>();
/** A token of `actor` bound to the fixture's workspace (the viewer's is a member's read-only one, as for h2c). */
export function mcpTokenOf(f: TeamFixture, actor: Person): Promise<string> {
  if (!mcpTokens.has(actor)) {
    const made = actor === f.viewer ? createToken(f.member, f.teamId, { name: 'mcp', scopes: ['read'], workspaceId: f.workspaceId }) : createToken(actor, f.teamId, { name: 'mcp', scopes: ['read', 'write'], workspaceId: f.workspaceId });
    mcpTokens.set(actor, made.then((t) => t.secret));
  }
  return mcpTokens.get(actor) as Promise<string>;
}

/** The client the MCP route is called with: the actor's workspace-bound token, or nobody. */
async function mcpClient(f: TeamFixture, actor: Person | null): Promise<HttpClient> {
  const client = new HttpClient(f.url);
  if (actor) client.bearer = await mcpTokenOf(f, actor);
  return client;
}

/** A new h2c task in the fixture's workspace, created with the owner's token (it stays queued: no worker). */
export async function newH2cTask(f: TeamFixture): Promise<{ taskId: string; sessionId: string; runId: string }> {
  const res = await (await h2cClient(f, f.owner)).post('/v1/task/create', { prompt: 'a task from the route table', cwd: f.workspaceId });
  if (res.status !== 200) throw new Error(`create h2c task: expected 200, got ${res.status} ${res.text}`);
  const [row] = await sql<{ sessionId: string; runId: string }>(`SELECT "sessionId", "runId" FROM "H2cTask" WHERE id = $1`, [res.body.task_id]);
  return { taskId: res.body.task_id, ...row };
}

const sharedTasks = new WeakMap<TeamFixture, Promise<{ taskId: string }>>();
const sharedTask = (f: TeamFixture) => {
  if (!sharedTasks.has(f)) sharedTasks.set(f, newH2cTask(f));
  return sharedTasks.get(f) as Promise<{ taskId: string }>;
};

// These stacks run no worker, so tasks never end by themselves, and a team may have 50 runs queued
// or running: the generic suites call `prepare` hundreds of times, so targets are reused while they
// still fit (a task still active to cancel, a pending request to answer) and made anew only after.
const cancelTasks = new WeakMap<TeamFixture, { taskId: string; runId: string }>();
async function cancellableTask(f: TeamFixture): Promise<string> {
  const current = cancelTasks.get(f);
  if (current) {
    const [run] = await sql<{ status: string; cancelRequestedAt: Date | null }>(`SELECT status, "cancelRequestedAt" FROM "Run" WHERE id = $1`, [current.runId]);
    if (run && ['queued', 'running', 'waiting_permission'].includes(run.status) && !run.cancelRequestedAt) return current.taskId;
  }
  const task = await newH2cTask(f);
  cancelTasks.set(f, task);
  return task.taskId;
}

const permissionTasks = new WeakMap<TeamFixture, Promise<{ taskId: string; sessionId: string; runId: string }>>();
/** An h2c task with a pending permission request (written the way the worker writes one). */
async function taskWithPendingRequest(f: TeamFixture): Promise<string> {
  if (!permissionTasks.has(f)) permissionTasks.set(f, newH2cTask(f));
  const { taskId, sessionId, runId } = await (permissionTasks.get(f) as Promise<{ taskId: string; sessionId: string; runId: string }>);
  const [pending] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "PermissionRequest" WHERE "runId" = $1 AND status = 'pending'`, [runId]);
  if (!pending.n) {
    await sql(
      `INSERT INTO "PermissionRequest" (id, "sessionId", "runId", "toolCallId", "toolName", input)
       VALUES (gen_random_uuid(), $1, $2, $3, 'run_command', '{"command":"ls"}')`,
      [sessionId, runId, `call-${randomUUID()}`],
    );
  }
  return taskId;
}

export const ROUTES: Record<string, RouteSpec> = {
  'GET /health': { access: { kind: 'public' }, success: 200, prepare: async () => ({ params: {} }) },
  'POST /api/mcp': {
    access: { kind: 'mcp', scope: 'read' },
    success: 200,
    prepare: async (f, actor) => ({ params: {}, client: await mcpClient(f, actor === f.outsider ? null : actor), body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } }),
  },
  'POST /v1/task/create': {
    access: { kind: 'h2c', minRole: 'member', scope: 'run', outsider: { status: 400, code: 'workspace_required' } },
    success: 200,
    prepare: async (f, actor) => ({ params: {}, client: await h2cClient(f, actor), body: { prompt: 'a task from the route table', permission_mode: 'approve', cwd: f.workspaceId } }),
  },
  'POST /v1/task/cancel': {
    access: { kind: 'h2c', minRole: 'member', scope: 'run' },
    success: 200,
    prepare: async (f, actor) => ({ params: {}, client: await h2cClient(f, actor), body: { task_id: await cancellableTask(f) } }),
  },
  'POST /v1/task/permission': {
    access: { kind: 'h2c', minRole: 'member', scope: 'run' },
    success: 200,
    prepare: async (f, actor) => ({ params: {}, client: await h2cClient(f, actor), body: { task_id: await taskWithPendingRequest(f), behavior: 'deny', message: 'not now' } }),
  },
  'GET /v1/task/output': {
    access: { kind: 'h2c', minRole: 'viewer', scope: 'read' },
    success: 200,
    prepare: async (f, actor) => ({ params: {}, client: await h2cClient(f, actor), query: `?task_id=${(await sharedTask(f)).taskId}` }),
  },
  'GET /v1/task/output/stream': {
    access: { kind: 'h2c', minRole: 'viewer', scope: 'read' },
    success: 200,
    stream: true,
    prepare: async (f, actor) => ({ params: {}, client: await h2cClient(f, actor), query: `?task_id=${(await sharedTask(f)).taskId}` }),
  },
  'GET /v1/task': {
    access: { kind: 'h2c', minRole: 'viewer', scope: 'read' },
    success: 200,
    prepare: async (f, actor) => ({ params: {}, client: await h2cClient(f, actor), query: `?task_id=${(await sharedTask(f)).taskId}` }),
  },
  'GET /api/health': { access: { kind: 'public' }, success: 200, prepare: async () => ({ params: {} }) },
  'GET /api/ready': { access: { kind: 'public' }, success: 200, prepare: async () => ({ params: {} }) },
  // Public to users: it takes the metrics token only (test stacks set TEST_METRICS_TOKEN); refusals
  // without it are test/integration/telemetry/metrics.int-spec.ts's.
  'GET /api/metrics': { access: { kind: 'public' }, success: 200, prepare: async () => ({ params: {}, headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } }) },
  'GET /api/v1/auth/signup': { access: { kind: 'public' }, success: 200, prepare: async () => ({ params: {} }) },
  'POST /api/v1/auth/signup': {
    access: { kind: 'public' },
    success: 201,
    prepare: async () => ({ params: {}, body: { email: randomEmail('route'), password: TEST_PASSWORD, name: 'Route Table' } }),
  },
  'POST /api/v1/auth/login': {
    access: { kind: 'public' },
    success: 200,
    prepare: async (f) => ({ params: {}, body: { email: f.viewer.email, password: TEST_PASSWORD } }),
  },
  'POST /api/v1/auth/logout': {
    access: { kind: 'authenticated' },
    success: 204,
    // Logging out the actor's own session would break later requests: use a second session.
    prepare: async (f, actor) => ({ params: {}, client: actor ? await loggedInClient(f.url, actor.email) : undefined }),
  },
  'GET /api/v1/me': { access: { kind: 'authenticated' }, success: 200, prepare: async () => ({ params: {} }) },
  'GET /api/v1/teams': { access: { kind: 'user-only' }, success: 200, prepare: async () => ({ params: {} }) },
  'POST /api/v1/teams': {
    access: { kind: 'user-only' },
    success: 201,
    prepare: async () => ({ params: {}, body: { name: `Route team ${randomUUID().slice(0, 6)}` } }),
  },
  'GET /api/v1/teams/{teamId}': { access: { kind: 'team', minRole: 'viewer' }, success: 200, prepare: async (f) => ({ params: team(f) }) },
  'GET /api/v1/teams/{teamId}/members': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: team(f) }),
  },
  'POST /api/v1/teams/{teamId}/members': {
    access: { kind: 'team', minRole: 'admin', userOnly: true },
    success: 201,
    prepare: async (f) => ({ params: team(f), body: { role: 'viewer' } }),
  },
  'PATCH /api/v1/teams/{teamId}/members/{userId}': {
    access: { kind: 'team', minRole: 'admin', userOnly: true },
    success: 200,
    prepare: async (f) => {
      const target = await addPerson(f.url, f.owner, f.teamId, 'viewer', 'promoted');
      return { params: { ...team(f), userId: target.userId }, body: { role: 'member' } };
    },
  },
  'DELETE /api/v1/teams/{teamId}/members/{userId}': {
    access: { kind: 'team', minRole: 'admin', userOnly: true },
    success: 204,
    prepare: async (f) => {
      const target = await addPerson(f.url, f.owner, f.teamId, 'viewer', 'removed');
      return { params: { ...team(f), userId: target.userId } };
    },
  },
  'GET /api/v1/teams/{teamId}/invitations': {
    access: { kind: 'team', minRole: 'admin', userOnly: true, why: 'pending invitations say who is being let in: for those who may invite' },
    success: 200,
    prepare: async (f) => ({ params: team(f) }),
  },
  'DELETE /api/v1/teams/{teamId}/invitations/{id}': {
    access: { kind: 'team', minRole: 'admin', userOnly: true },
    success: 204,
    prepare: async (f) => {
      const res = await f.owner.client.post(`/api/v1/teams/${f.teamId}/members`, { role: 'member' });
      return { params: { ...team(f), id: await expectCreated({ ...res, body: res.body?.invitation }, 201, 'create invitation') } };
    },
  },
  'POST /api/v1/invitations/lookup': {
    access: { kind: 'public' },
    success: 200,
    prepare: async (f) => ({ params: {}, body: { token: await invite(f.owner, f.teamId, { role: 'viewer' }) } }),
  },
  'POST /api/v1/invitations/accept': {
    access: { kind: 'user-only' },
    success: 200,
    // Into a team the actor is not in (the outsider in the roles spec, the owner in bad-values).
    prepare: async (f, actor) => {
      const by = actor === f.viewer ? f.member : f.viewer;
      return { params: {}, body: { token: await invite(by, await createTeam(by, 'accept target'), { role: 'viewer' }) } };
    },
  },
  'GET /api/v1/teams/{teamId}/quotas': { access: { kind: 'team', minRole: 'viewer' }, success: 200, prepare: async (f) => ({ params: team(f) }) },
  'GET /api/v1/teams/{teamId}/audit': {
    access: { kind: 'team', minRole: 'admin', why: 'the audit log shows who did what: admins only' },
    success: 200,
    prepare: async (f) => ({ params: team(f), query: `?limit=10&action=member&actorUserId=${f.owner.userId}&from=2020-01-01T00:00:00.000Z` }),
  },
  'GET /api/v1/admin/teams': { access: { kind: 'instance-admin' }, success: 200, prepare: async () => ({ params: {} }) },
  'GET /api/v1/admin/sandboxes': { access: { kind: 'instance-admin' }, success: 200, prepare: async () => ({ params: {} }) },
  'GET /api/v1/admin/quotas': { access: { kind: 'instance-admin' }, success: 200, prepare: async () => ({ params: {} }) },
  'GET /api/v1/teams/{teamId}/tokens': {
    access: { kind: 'team', minRole: 'member', userOnly: true, why: 'token names and scopes are for those who may create tokens' },
    success: 200,
    prepare: async (f) => ({ params: team(f) }),
  },
  'POST /api/v1/teams/{teamId}/tokens': {
    access: { kind: 'team', minRole: 'member', userOnly: true },
    success: 201,
    prepare: async (f) => ({ params: team(f), body: { name: 'route-table', scopes: ['read'] } }),
  },
  'DELETE /api/v1/teams/{teamId}/tokens/{id}': {
    access: { kind: 'team', minRole: 'member', userOnly: true },
    success: 204,
    // Members may revoke their own tokens; a token of someone else needs an admin.
    prepare: async (f, actor) => {
      const role = roleOf(f, actor);
      const creator = actor && role && role !== 'viewer' ? actor : f.owner;
      const token = await createToken(creator, f.teamId, { name: 'to-revoke', scopes: ['read'] });
      return { params: { ...team(f), id: token.id } };
    },
  },
  'GET /api/v1/teams/{teamId}/providers/{provider}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { ...team(f), provider: 'deepseek' } }),
  },
  'PUT /api/v1/teams/{teamId}/providers/{provider}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 200,
    prepare: async (f) => ({ params: { ...team(f), provider: 'deepseek' }, body: { apiKey: PROVIDER_KEY() } }),
  },
  'DELETE /api/v1/teams/{teamId}/providers/{provider}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 204,
    prepare: async (f) => {
      const res = await f.owner.client.put(`/api/v1/teams/${f.teamId}/providers/deepseek`, { apiKey: PROVIDER_KEY() });
      if (res.status !== 200) throw new Error(`could not set a provider key: ${res.status} ${res.text}`);
      return { params: { ...team(f), provider: 'deepseek' } };
    },
  },
  // A workspace's external MCP servers (libs/mcp client/): everyone reads (never the headers),
  // members and above change; fresh servers per call (a workspace keeps at most 10).
  'GET /api/v1/workspaces/{id}/mcp-servers': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  'POST /api/v1/workspaces/{id}/mcp-servers': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => {
      await makeRoomForMcpServers(f);
      return { params: { id: f.workspaceId }, body: { name: mcpServerName(), transport: 'http', url: 'https://mcp.example.org/mcp', headers: { Authorization: `Bearer ${PROVIDER_KEY()}` } } };
    },
  },
  'GET /api/v1/workspaces/{id}/mcp-servers/{serverId}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId, serverId: await sharedMcpServer(f) } }),
  },
  'PATCH /api/v1/workspaces/{id}/mcp-servers/{serverId}': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId, serverId: await sharedMcpServer(f) }, body: { approval: 'allow', args: ['server.js', randomUUID()] } }),
  },
  'POST /api/v1/workspaces/{id}/mcp-servers/{serverId}/check': {
    access: { kind: 'team', minRole: 'member' },
    success: 202,
    prepare: async (f) => ({ params: { id: f.workspaceId, serverId: await sharedMcpServer(f) } }),
  },
  'DELETE /api/v1/workspaces/{id}/mcp-servers/{serverId}': {
    access: { kind: 'team', minRole: 'member' },
    success: 204,
    prepare: async (f) => {
      await makeRoomForMcpServers(f);
      return { params: { id: f.workspaceId, serverId: await newMcpServer(f) } };
    },
  },
  // Persistent memory (libs/memory): the caller's own user memory and the workspace's project
  // memory; everyone reads, members and above change. Project memories here (a user memory is its
  // owner's alone: test/integration/memory).
  'GET /api/v1/workspaces/{id}/memories': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: '?scope=project&q=spaces' }),
  },
  'POST /api/v1/workspaces/{id}/memories': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => ({ params: { id: f.workspaceId }, body: { scope: 'project', key: `route-${randomUUID()}`, content: 'Four spaces', category: 'convention', tags: ['style'] } }),
  },
  'GET /api/v1/workspaces/{id}/memories/{memoryId}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId, memoryId: await sharedMemory(f) } }),
  },
  'GET /api/v1/workspaces/{id}/memories/{memoryId}/history': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId, memoryId: await sharedMemory(f) } }),
  },
  'PATCH /api/v1/workspaces/{id}/memories/{memoryId}': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId, memoryId: await sharedMemory(f) }, body: { content: `Tabs ${randomUUID()}` } }),
  },
  'DELETE /api/v1/workspaces/{id}/memories/{memoryId}': {
    access: { kind: 'team', minRole: 'member' },
    success: 204,
    prepare: async (f) => ({ params: { id: f.workspaceId, memoryId: await newMemory(f) } }),
  },
  // A team's own OpenAI-compatible providers (libs/providers custom-providers): everyone reads
  // (never a key), owners and admins change; fresh providers per call.
  'GET /api/v1/teams/{teamId}/providers': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: team(f) }),
  },
  'POST /api/v1/teams/{teamId}/providers': {
    access: { kind: 'team', minRole: 'admin' },
    success: 201,
    prepare: async (f) => {
      await makeRoomForProviders(f);
      const models = [{ id: 'route-table-model', contextWindow: 8192, maxOutput: 1024, price: { input: 1, cacheHit: 0.1, output: 2 } }];
      return { params: team(f), body: { name: `provider ${randomUUID()}`, baseUrl: await modelsServerUrl(), apiKey: PROVIDER_KEY(), models } };
    },
  },
  'GET /api/v1/teams/{teamId}/providers/custom/{providerId}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { ...team(f), providerId: await sharedCustomProvider(f) } }),
  },
  'PATCH /api/v1/teams/{teamId}/providers/custom/{providerId}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 200,
    prepare: async (f) => ({ params: { ...team(f), providerId: await sharedCustomProvider(f) }, body: { name: `renamed ${randomUUID()}`, apiKey: PROVIDER_KEY() } }),
  },
  'DELETE /api/v1/teams/{teamId}/providers/custom/{providerId}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 204,
    prepare: async (f) => {
      await makeRoomForProviders(f);
      return { params: { ...team(f), providerId: await newCustomProvider(f) } };
    },
  },
  'POST /api/v1/teams/{teamId}/providers/custom/{providerId}/models/fetch': {
    access: { kind: 'team', minRole: 'admin', why: "it sends the provider's key to its server" },
    success: 200,
    prepare: async (f) => ({ params: { ...team(f), providerId: await sharedCustomProvider(f) } }),
  },
  // Model presets (libs/providers): everyone reads, owners and admins change; fresh presets per call.
  'GET /api/v1/teams/{teamId}/model-presets': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: team(f) }),
  },
  'POST /api/v1/teams/{teamId}/model-presets': {
    access: { kind: 'team', minRole: 'admin' },
    success: 201,
    prepare: async (f) => ({ params: team(f), body: { name: `preset ${randomUUID()}`, model: 'deepseek-v4-flash', thinking: true } }),
  },
  'PATCH /api/v1/teams/{teamId}/model-presets/{presetId}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 200,
    prepare: async (f) => ({ params: { ...team(f), presetId: await newPreset(f) }, body: { thinking: false } }),
  },
  'DELETE /api/v1/teams/{teamId}/model-presets/{presetId}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 204,
    prepare: async (f) => ({ params: { ...team(f), presetId: await newPreset(f) } }),
  },
  'GET /api/v1/teams/{teamId}/workspaces': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: team(f) }),
  },
  'POST /api/v1/teams/{teamId}/workspaces': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => ({ params: team(f), body: { name: 'route-table-ws', description: 'made by the route table' } }),
  },
  'GET /api/v1/workspaces/{id}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  'PATCH /api/v1/workspaces/{id}': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, body: { description: `edited ${randomUUID().slice(0, 6)}` } }),
  },
  'DELETE /api/v1/workspaces/{id}': {
    access: { kind: 'team', minRole: 'admin' },
    success: 204,
    prepare: async (f) => ({ params: { id: await createWorkspace(f.owner, f.teamId, 'to-delete') } }),
  },
  'GET /api/v1/workspaces/{id}/egress-log': {
    access: { kind: 'team', minRole: 'admin', why: "the sandbox's network activity (hosts, addresses) is for those who may turn it on" },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  // The knowledge graph's status for the IDE's status bar (libs/lsp graph.controller, the sandbox's graph).
  'GET /api/v1/workspaces/{id}/graph/status': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  // The file API (libs/files). Writes go to fresh paths so every role's request succeeds alike.
  'GET /api/v1/workspaces/{id}/files/tree': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: '?path=&recursive=true&limit=50' }),
  },
  'GET /api/v1/workspaces/{id}/files/content': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: `?path=${encodeURIComponent(await sharedFile(f))}` }),
  },
  'GET /api/v1/workspaces/{id}/files/text': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: `?path=${encodeURIComponent(await sharedFile(f))}` }),
  },
  'PUT /api/v1/workspaces/{id}/files/content': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    // Over an existing file (the documented 200; a new one is 201), whatever version it is.
    prepare: async (f) => ({
      params: { id: f.workspaceId },
      query: `?path=${await newFile(f, 'put')}`,
      headers: { 'if-match': '*' },
      body: { content: 'written by the route table\n' },
    }),
  },
  'POST /api/v1/workspaces/{id}/files': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: `?path=${freshFilePath('create')}`, body: { type: 'file', content: 'made by the route table' } }),
  },
  'POST /api/v1/workspaces/{id}/files/move': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, body: { from: await newFile(f, 'move-from'), to: freshFilePath('move-to') } }),
  },
  'DELETE /api/v1/workspaces/{id}/files': {
    access: { kind: 'team', minRole: 'member' },
    success: 204,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: `?path=${await newFile(f, 'delete')}` }),
  },
  'POST /api/v1/workspaces/{id}/files/upload': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    // The raw body (any content type) is the file; none at all makes it empty. Over an existing file (200).
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: `?path=${await newFile(f, 'upload')}`, headers: { 'if-match': '*' } }),
  },
  // Source Control (libs/scm), in the fixture's workspace made a repository with one commit.
  'GET /api/v1/workspaces/{id}/git/status': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => inRepo(f),
  },
  'POST /api/v1/workspaces/{id}/git/init': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  'GET /api/v1/workspaces/{id}/git/diff': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => inRepo(f, { query: `?path=${encodeURIComponent(await sharedFile(f))}&staged=false` }),
  },
  'POST /api/v1/workspaces/{id}/git/stage': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => inRepo(f, { body: { paths: [await newFile(f, 'stage')] } }),
  },
  'POST /api/v1/workspaces/{id}/git/unstage': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, body: { paths: [await newStagedFile(f, 'unstage')] } }),
  },
  'POST /api/v1/workspaces/{id}/git/discard': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => inRepo(f, { body: { paths: [await newFile(f, 'discard')] } }),
  },
  'POST /api/v1/workspaces/{id}/git/commit': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => {
      await newStagedFile(f, 'commit');
      return inRepo(f, { body: { message: 'committed by the route table' } });
    },
  },
  'GET /api/v1/workspaces/{id}/git/branches': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => inRepo(f),
  },
  'POST /api/v1/workspaces/{id}/git/branches': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    // Not switched to, so every other request still finds the repository on main.
    prepare: async (f) => inRepo(f, { body: { name: `route-table/${randomUUID().slice(0, 8)}`, from: 'main', checkout: false } }),
  },
  'POST /api/v1/workspaces/{id}/git/checkout': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => inRepo(f, { body: { branch: 'main' } }),
  },
  'GET /api/v1/workspaces/{id}/git/log': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => inRepo(f, { query: '?limit=5&skip=0' }),
  },
  // The IDE's client state (libs/preferences): every reader of a workspace keeps their own.
  'GET /api/v1/workspaces/{id}/ide-state': {
    access: { kind: 'team', minRole: 'viewer', why: 'each user reads their own IDE state' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  'PUT /api/v1/workspaces/{id}/ide-state': {
    access: { kind: 'team', minRole: 'viewer', why: 'the state is the caller\'s own, so viewers write it too' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, body: { state: { openTabs: ['README.md'], activeTab: 'README.md' } } }),
  },
  'GET /api/v1/me/preferences': { access: { kind: 'user-only' }, success: 200, prepare: async () => ({ params: {} }) },
  'PUT /api/v1/me/preferences': { access: { kind: 'user-only' }, success: 200, prepare: async () => ({ params: {}, body: { tabSize: 2 } }) },
  // Bringing a project in and out, remote git (libs/git-remote); the full round trips (clone,
  // conflicts, rejected pushes) are test/integration/import.
  'POST /api/v1/teams/{teamId}/workspaces/import': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => ({
      params: team(f),
      query: '?name=route-table-import',
      headers: { 'content-type': 'application/x-tar' },
      rawBody: (await makeTar([{ name: 'README.md', content: 'from the route table\n' }])).toString('latin1'),
    }),
  },
  'GET /api/v1/workspaces/{id}/archive': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: '?format=tar.gz' }),
  },
  'POST /api/v1/workspaces/{id}/setup/retry': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    // A workspace whose setup failed (no worker runs here, so it stays as set).
    prepare: async (f) => {
      const id = await createWorkspace(f.owner, f.teamId, 'route-table-failed');
      await sql(`UPDATE "Workspace" SET status = 'error', "statusMessage" = 'failed for the route table' WHERE id = $1`, [id]);
      return { params: { id } };
    },
  },
  'GET /api/v1/workspaces/{id}/git/remote': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: await workspaceWithRemote(f) } }),
  },
  'PUT /api/v1/workspaces/{id}/git/remote': {
    access: { kind: 'team', minRole: 'admin', why: 'the remote credential is a team secret: owners and admins replace it' },
    success: 200,
    prepare: async (f) => ({ params: { id: await workspaceWithRemote(f) }, body: { url: 'https://git.example.org/team/route-table.git', username: 'ci-bot', token: GIT_TOKEN() } }),
  },
  'DELETE /api/v1/workspaces/{id}/git/remote/credential': {
    access: { kind: 'team', minRole: 'admin' },
    success: 204,
    prepare: async (f) => {
      const id = await workspaceWithRemote(f);
      const res = await f.owner.client.put(`/api/v1/workspaces/${id}/git/remote`, { url: 'https://git.example.org/team/route-table.git', token: GIT_TOKEN() });
      if (res.status !== 200) throw new Error(`set git remote: expected 200, got ${res.status} ${res.text}`);
      return { params: { id } };
    },
  },
  'POST /api/v1/workspaces/{id}/git/fetch': { access: { kind: 'team', minRole: 'member' }, success: 200, prepare: async (f) => ({ params: { id: await workspaceWithGit(f) } }) },
  'POST /api/v1/workspaces/{id}/git/pull': { access: { kind: 'team', minRole: 'member' }, success: 200, prepare: async (f) => ({ params: { id: await workspaceWithGit(f) } }) },
  'POST /api/v1/workspaces/{id}/git/push': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: await workspaceWithGit(f) }, body: { branch: 'main' } }),
  },
  'GET /api/v1/workspaces/{id}/sessions': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId } }),
  },
  // The IDE's session search box (libs/session-search): readers of the workspace search its log.
  'GET /api/v1/workspaces/{id}/sessions/search': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: '?q=route%20table' }),
  },
  // The team page's search box: every workspace of the team, for its readers.
  'GET /api/v1/teams/{teamId}/sessions/search': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: team(f), query: '?q=route%20table' }),
  },
  'POST /api/v1/workspaces/{id}/sessions': {
    access: { kind: 'team', minRole: 'member', scope: 'run' },
    success: 201,
    prepare: async (f) => ({ params: { id: f.workspaceId }, body: { title: 'made by the route table', permissionMode: 'approve' } }),
  },
  'GET /api/v1/sessions/{id}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId } }),
  },
  'PATCH /api/v1/sessions/{id}': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId }, body: { title: `renamed ${randomUUID().slice(0, 6)}` } }),
  },
  'GET /api/v1/sessions/{id}/state': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId } }),
  },
  'POST /api/v1/sessions/{id}/messages': {
    access: { kind: 'team', minRole: 'member', scope: 'run' },
    success: 202,
    prepare: async (f) => ({ params: { id: await newSession(f) }, body: { content: 'a message from the route table' } }),
  },
  'GET /api/v1/sessions/{id}/runs': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId } }),
  },
  'GET /api/v1/sessions/{id}/events': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId }, query: '?after=0&limit=50' }),
  },
  'GET /api/v1/sessions/{id}/events/stream': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    stream: true,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId }, query: '?after=0' }),
  },
  'GET /api/v1/sessions/{id}/outputs/{outputId}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => {
      const { sessionId, outputId } = await sharedOutput(f);
      return { params: { id: sessionId, outputId: String(outputId) }, query: '?offset=0&limit=4096' };
    },
  },
  'GET /api/v1/sessions/{id}/permissions': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId }, query: '?status=pending' }),
  },
  'GET /api/v1/runs/{id}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    // The shared run stays queued here (no worker), so any wait would be spent in full.
    prepare: async (f) => ({ params: { id: (await shared(f)).runId }, query: '?wait=0' }),
  },
  // The bot API (libs/runs bot-run.controller.ts).
  'POST /api/v1/workspaces/{id}/runs': {
    access: { kind: 'team', minRole: 'member', scope: 'run' },
    success: 202,
    prepare: async (f) => ({
      params: { id: f.workspaceId },
      body: { prompt: 'a run from the route table', mode: 'approve', model: 'deepseek-v4-flash', thinking: false, title: 'route table run', clientRunId: `route-${randomUUID()}` },
    }),
  },
  'GET /api/v1/workspaces/{id}/runs': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: f.workspaceId }, query: '?status=active&limit=5' }),
  },
  'GET /api/v1/runs/{id}/diff': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await sharedChange(f)).runId } }),
  },
  'POST /api/v1/runs/{id}/cancel': {
    access: { kind: 'team', minRole: 'member', scope: 'run' },
    success: 202,
    prepare: async (f) => ({ params: { id: (await newRun(f)).runId } }),
  },
  'POST /api/v1/permissions/{id}': {
    access: { kind: 'team', minRole: 'member', scope: 'run' },
    success: 200,
    prepare: async (f) => ({ params: { id: await newPermission(f) }, body: { behavior: 'deny', message: 'not now' } }),
  },
  'GET /api/v1/teams/{teamId}/usage': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: team(f), query: '?month=2026-11' }),
  },
  // Budgets (libs/runs budget/): everyone reads where the team stands; people with admin rights set it.
  'GET /api/v1/teams/{teamId}/budget': { access: { kind: 'team', minRole: 'viewer' }, success: 200, prepare: async (f) => ({ params: team(f) }) },
  'PUT /api/v1/teams/{teamId}/budget': {
    access: { kind: 'team', minRole: 'admin', userOnly: true, why: 'what the team may spend is decided by people, never by a bot\'s token' },
    success: 200,
    prepare: async (f) => ({ params: team(f), body: { monthlyUsd: 100000 } }),
  },
  // The agent's file changes (libs/changes) and forks (libs/sessions).
  'GET /api/v1/sessions/{id}/changes': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await shared(f)).sessionId } }),
  },
  'GET /api/v1/changes/{id}': {
    access: { kind: 'team', minRole: 'viewer' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await sharedChange(f)).changeId } }),
  },
  'POST /api/v1/changes/{id}/accept': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await newChange(f)).changeId } }),
  },
  'POST /api/v1/changes/{id}/reject': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    prepare: async (f) => ({ params: { id: (await newChange(f)).changeId } }),
  },
  'POST /api/v1/runs/{id}/revert': {
    access: { kind: 'team', minRole: 'member' },
    success: 200,
    // Each call reverts the one change it just added (the ones before were reverted already).
    prepare: async (f) => ({ params: { id: (await newChange(f, await revertRun(f))).runId } }),
  },
  'POST /api/v1/sessions/{id}/fork': {
    access: { kind: 'team', minRole: 'member' },
    success: 201,
    prepare: async (f) => {
      const { sessionId, atSeq } = await newForkableSession(f);
      return { params: { id: sessionId }, body: { atSeq, restoreFiles: true } };
    },
  },
};

/**
 * An agent change recorded the way the run job records one: the agent created a file (made here
 * by the owner), so a reject deletes it again and needs only the fixture's sandbox.
 */
export async function newChange(f: TeamFixture, run?: { sessionId: string; runId: string }): Promise<{ changeId: string; runId: string }> {
  // Runs stay queued in these stacks (no worker), and a team may have 50: changes share runs.
  const { sessionId, runId } = run ?? (await shared(f));
  const path = await newFile(f, 'change');
  const after = { exists: true, content: 'route table\n', bytes: 12, binary: false, directory: false, tooLarge: false };
  const before = { exists: false, content: null, bytes: 0, binary: false, directory: false, tooLarge: false };
  const [row] = await sql<{ id: string }>(
    `INSERT INTO "AgentChange" (id, "sessionId", "runId", "toolCallId", kind, path, before, after, added, removed)
     VALUES (gen_random_uuid(), $1, $2, 'call-route-table', 'create', $3, $4, $5, 1, 0) RETURNING id`,
    [sessionId, runId, path, JSON.stringify(before), JSON.stringify(after)],
  );
  return { changeId: row.id, runId };
}

const forkWorkspaces = new WeakMap<TeamFixture, Promise<string>>();
/**
 * A session whose log holds one user message, in a workspace of its own with no run (the
 * fixture's workspace always has a queued one, and a fork waits for runs to end).
 */
export async function newForkableSession(f: TeamFixture): Promise<{ sessionId: string; atSeq: number }> {
  if (!forkWorkspaces.has(f)) forkWorkspaces.set(f, createWorkspace(f.owner, f.teamId, `fork-${randomUUID().slice(0, 6)}`));
  const workspaceId = await (forkWorkspaces.get(f) as Promise<string>);
  const res = await f.owner.client.post(`/api/v1/workspaces/${workspaceId}/sessions`, { title: 'fork me' });
  const sessionId = await expectCreated(res, 201, 'create session');
  await sql(`INSERT INTO "Event" ("sessionId", seq, "runId", type, data) VALUES ($1, 1, NULL, 'message.user', '{"content":"fork from here"}')`, [sessionId]);
  await sql(`UPDATE "AgentSession" SET "lastSeq" = 1 WHERE id = $1`, [sessionId]);
  return { sessionId, atSeq: 1 };
}

const revertRuns = new WeakMap<TeamFixture, Promise<{ sessionId: string; runId: string }>>();
const revertRun = (f: TeamFixture) => {
  if (!revertRuns.has(f)) revertRuns.set(f, newRun(f));
  return revertRuns.get(f) as Promise<{ sessionId: string; runId: string }>;
};

const sharedChanges = new WeakMap<TeamFixture, Promise<{ changeId: string; runId: string }>>();
const sharedChange = (f: TeamFixture) => {
  if (!sharedChanges.has(f)) sharedChanges.set(f, newChange(f));
  return sharedChanges.get(f) as Promise<{ changeId: string; runId: string }>;
};

/** Sends `req` (built by the entry's prepare) for route `key` with `client`; streams are opened and hung up on. */
export async function sendRoute(client: HttpClient, key: string, spec: RouteSpec, req: RouteRequest): Promise<HttpResponse> {
  const [method, template] = key.split(' ');
  const path = fillPath(template, req.params) + (req.query ?? '');
  return spec.stream ? openStream(client, path) : client.request(method, path, req.rawBody ?? req.body, req.headers);
}

export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(params[name]);
  });
}

export interface OpenApiOperation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: OpenApiSchema }> }>;
  parameters?: { name: string; in: string; schema?: OpenApiSchema }[];
}
export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  enum?: unknown[];
  items?: OpenApiSchema;
  maxLength?: number;
  pattern?: string;
  format?: string;
  /** `null` is a documented value (e.g. `apiKey: null` removes a key). */
  nullable?: boolean;
  /** One of several types (a JSON-RPC id: a string or an integer). */
  oneOf?: OpenApiSchema[];
  minimum?: number;
  maximum?: number;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** Every METHOD+path pair the OpenAPI document lists. */
export function documentedRoutes(doc: OpenApiDocument): { key: string; method: string; path: string; op: OpenApiOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({ key: routeKey(method, path), method: method.toUpperCase(), path, op })),
  );
}

export function resolveSchema(doc: OpenApiDocument, schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return doc.components?.schemas?.[name];
}

export async function fetchDocument(url: string): Promise<OpenApiDocument> {
  const res = await fetch(`${url}/api/docs-json`);
  if (res.status !== 200) throw new Error(`/api/docs-json answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}
