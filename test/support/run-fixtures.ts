import { parseScenario, startScriptedModelServer, type Scenario, type ScenarioTurn, type ScriptedModelServerOptions } from '@h/scripted-model';
import { SandboxManager } from '@h/workspaces';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { HttpClient, signedUpClient } from './http-client';
import type { INestApplicationContext } from '@nestjs/common';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { createWorker } from '../../apps/worker/src/bootstrap';
import { startStack, TestStack, waitFor } from './api-harness';
import { ADMIN_DATABASE_URL, TEST_DATABASE_URL } from './test-env';

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedModelServer>>;

export interface RunWorld {
  client: HttpClient;
  userId: string;
  teamId: string;
  workspaceId: string;
}

/**
 * A stack with a worker on a database of its own (migrated here, dropped on close). Workers sweep
 * every team's queued and stale runs, which is right for one deployment; but stacks of other test
 * files running at the same time against the shared database would admit this file's runs with
 * their own limits and master key. Runs tests that leave runs queued need their own database.
 */
export async function startIsolatedStack(env: Record<string, string> = {}): Promise<TestStack> {
  const name = `h_test_runs_${randomUUID().slice(0, 8)}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = TEST_DATABASE_URL.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
  execFileSync('node', ['prisma/engine/prisma-cli.mjs', 'migrate', 'deploy'], { env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' });
  const stack = await startStack({ worker: true, env: { ...env, DATABASE_URL: url } });
  const close = stack.close.bind(stack);
  stack.close = async () => {
    await close();
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  return stack;
}

export interface ScriptedRunStack {
  model: ScriptedServer;
  stack: TestStack;
}

/**
 * Registers the file's hooks: a scripted model serving `scenarios` (no demo fallback) and an
 * isolated stack pointed at it, closed after all tests. After each test the model must have met
 * every scripted expectation; it is then reset, so one test's leftovers never fail the next.
 */
export function useScriptedRunStack(
  scenarios: Scenario[],
  env: Record<string, string> = {},
  modelOptions: Omit<ScriptedModelServerOptions, 'scenarios'> = {},
): ScriptedRunStack {
  const handle = {} as ScriptedRunStack;
  beforeAll(async () => {
    handle.model = await startScriptedModelServer({ demo: false, ...modelOptions, scenarios });
    handle.stack = await startIsolatedStack({ DEEPSEEK_BASE_URL: handle.model.url, ...env });
  });
  afterAll(async () => {
    await handle.stack?.close();
    await handle.model?.close();
  });
  afterEach(() => {
    const failures = [...handle.model.failures];
    handle.model.reset();
    expect(failures).toEqual([]);
  });
  return handle;
}

/**
 * Closes the stack's worker and starts a new one on the same config, as a worker restart would;
 * the stack's close() then closes the new one too.
 */
export async function restartWorker(stack: TestStack): Promise<INestApplicationContext> {
  await stack.worker?.close();
  const worker = await createWorker(stack.config);
  stack.worker = worker;
  const close = stack.close.bind(stack);
  stack.close = async () => {
    await worker.close();
    await close();
  };
  return worker;
}

/**
 * Replaces the stack's api with a new instance on the same config (a restarted api process; it
 * listens on a new port). Returns a client for it that carries `client`'s cookies (same login).
 */
export async function restartApi(stack: TestStack, client: HttpClient): Promise<HttpClient> {
  const old = stack.api;
  const api = await createApiApp(stack.config);
  await api.listen(0, '127.0.0.1');
  await old.close();
  const address = api.getHttpServer().address();
  stack.api = api;
  stack.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const close = stack.close.bind(stack);
  // The stack's own close() knows only the api it started (closing it again is harmless).
  stack.close = async () => {
    await api.close();
    await close();
  };
  const moved = new HttpClient(stack.url);
  for (const [k, v] of client.cookies) moved.cookies.set(k, v);
  return moved;
}

async function adminQuery(text: string): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** The DeepSeek key createRunWorld gives each team (a scripted server started with `apiKey` may insist on it). */
export const SCRIPTED_API_KEY = 'sk-scripted-test-key';

/** A signed-up user with a team, a DeepSeek key (any value: the scripted server takes it) and a ready workspace. */
export async function createRunWorld(stack: TestStack, tag = 'runs'): Promise<RunWorld> {
  const { client, userId } = await signedUpClient(stack.url, tag);
  const team = await client.post('/api/v1/teams', { name: `${tag} team` });
  await client.put(`/api/v1/teams/${team.body.id}/providers/deepseek`, { apiKey: SCRIPTED_API_KEY });
  const ws = await client.post(`/api/v1/teams/${team.body.id}/workspaces`, { name: `${tag}-ws` });
  await waitFor('workspace ready', async () => (await client.get(`/api/v1/workspaces/${ws.body.id}`)).body.status === 'ready');
  return { client, userId, teamId: team.body.id, workspaceId: ws.body.id };
}

async function sandboxOf(stack: TestStack, world: RunWorld) {
  if (!stack.worker) throw new Error('this test needs startStack({ worker: true })');
  const { workspace } = await stack.worker.get(SandboxManager).open({ id: world.workspaceId, teamId: world.teamId, networkEnabled: false });
  return workspace;
}

/** Writes files into the workspace's sandbox through the worker's own sandbox manager. */
export async function seedWorkspace(stack: TestStack, world: RunWorld, files: Record<string, string>): Promise<void> {
  const workspace = await sandboxOf(stack, world);
  for (const [path, content] of Object.entries(files)) await workspace.writeFile(path, content);
}

export async function readWorkspaceFile(stack: TestStack, world: RunWorld, path: string): Promise<string> {
  return (await sandboxOf(stack, world)).readTextFile(path);
}

export async function waitForRunStatus(client: HttpClient, runId: string, statuses: string[], timeoutMs = 90000): Promise<any> {
  return waitFor(
    `run ${runId} to reach ${statuses.join('|')}`,
    async () => {
      const res = await client.get(`/api/v1/runs/${runId}`);
      return statuses.includes(res.body.status) ? res.body : null;
    },
    timeoutMs,
  );
}

export async function allEvents(client: HttpClient, sessionId: string): Promise<any[]> {
  const out: any[] = [];
  for (;;) {
    const page = await client.get(`/api/v1/sessions/${sessionId}/events?after=${out.at(-1)?.seq ?? 0}&limit=1000`);
    out.push(...page.body.items);
    if (!page.body.hasMore) return out;
  }
}

/** The first event of the session's log that matches, waiting until it is there. */
export async function waitForEvent(client: HttpClient, sessionId: string, match: (e: any) => boolean, timeoutMs = 30000): Promise<any> {
  return waitFor(`an event in session ${sessionId}`, async () => (await allEvents(client, sessionId)).find(match), timeoutMs);
}

/** Waits for the run to park on a permission request and returns that pending request. */
export async function waitForPendingPermission(client: HttpClient, sessionId: string, runId: string, timeoutMs = 30000): Promise<any> {
  const run = await waitForRunStatus(client, runId, ['waiting_permission', 'completed', 'failed', 'cancelled'], timeoutMs);
  if (run.status !== 'waiting_permission') throw new Error(`run ${runId} ended (${run.status}) instead of asking: ${JSON.stringify(run.error)}`);
  const res = await client.get(`/api/v1/sessions/${sessionId}/permissions?status=pending`);
  const pending = res.body.items.filter((p: any) => p.runId === runId);
  if (pending.length !== 1) throw new Error(`expected one pending permission for run ${runId}, got ${JSON.stringify(res.body)}`);
  return pending[0];
}

/** Creates a session (default mode: approve) and posts its first message; returns both ids. */
export async function startRun(
  world: RunWorld,
  content: string,
  session: { permissionMode?: 'approve' | 'bypass' | 'skip'; sessionId?: string } = {},
): Promise<{ sessionId: string; runId: string; run: any }> {
  let sessionId = session.sessionId;
  if (!sessionId) {
    const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: session.permissionMode ?? 'approve' });
    if (created.status !== 201) throw new Error(`create session: ${created.status} ${created.text}`);
    sessionId = created.body.id as string;
  }
  const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content });
  if (posted.status !== 202) throw new Error(`post message: ${posted.status} ${posted.text}`);
  return { sessionId, runId: posted.body.id, run: posted.body };
}

/** Runs a shell command in the workspace's sandbox (as the agent's tools would). */
export async function sandboxExec(stack: TestStack, world: RunWorld, command: string): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  if (!stack.worker) throw new Error('sandboxExec needs a stack started with a worker');
  const { workspace } = await stack.worker.get(SandboxManager).open({ id: world.workspaceId, teamId: world.teamId, networkEnabled: false });
  return workspace.exec(command, { timeoutMs: 15000 });
}

/** A scenario for the scripted model, validated like a scenario file. */
export function scenario(name: string, firstUserMessageContains: string, turns: ScenarioTurn[], fixture?: Record<string, string>): Scenario {
  return parseScenario({ name, match: { firstUserMessageContains }, turns, ...(fixture ? { fixture } : {}) });
}

/** The turn that ends a run that used tools: write_summary and task_complete batched. */
export function finishTurn(
  expect: ScenarioTurn['expect'] = {},
  summary = '### Changes Made\n- none: nothing in the workspace changed.\n\n### Verification\n- checked the tool results.\n\n### Outcome\n- the scripted task is finished.',
): ScenarioTurn {
  return {
    expect,
    toolCalls: [
      { name: 'write_summary', arguments: { summary } },
      { name: 'task_complete', arguments: {} },
    ],
  };
}
