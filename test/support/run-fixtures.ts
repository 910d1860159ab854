import { startScriptedModelServer } from '@h/scripted-model';
import { SandboxManager } from '@h/runner';
import { HttpClient, signedUpClient } from './http-client';
import { TestStack, waitFor } from './api-harness';

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedModelServer>>;

export interface RunWorld {
  client: HttpClient;
  userId: string;
  teamId: string;
  workspaceId: string;
}

/** A signed-up user with a team, a DeepSeek key (any value: the scripted server takes it) and a ready workspace. */
export async function createRunWorld(stack: TestStack, tag = 'runs'): Promise<RunWorld> {
  const { client, userId } = await signedUpClient(stack.url, tag);
  const team = await client.post('/api/v1/teams', { name: `${tag} team` });
  await client.put(`/api/v1/teams/${team.body.id}/providers/deepseek`, { apiKey: 'sk-scripted-test-key' });
  const ws = await client.post(`/api/v1/teams/${team.body.id}/workspaces`, { name: `${tag}-ws` });
  await waitFor('workspace ready', async () => (await client.get(`/api/v1/workspaces/${ws.body.id}`)).body.status === 'ready');
  return { client, userId, teamId: team.body.id, workspaceId: ws.body.id };
}

/** Writes files into the workspace's sandbox through the worker's own sandbox manager. */
export async function seedWorkspace(stack: TestStack, world: RunWorld, files: Record<string, string>): Promise<void> {
  const manager = stack.worker!.get(SandboxManager);
  const { workspace } = await manager.open({ id: world.workspaceId, teamId: world.teamId, networkEnabled: false });
  for (const [path, content] of Object.entries(files)) await workspace.writeFile(path, content);
}

export async function readWorkspaceFile(stack: TestStack, world: RunWorld, path: string): Promise<string> {
  const manager = stack.worker!.get(SandboxManager);
  const { workspace } = await manager.open({ id: world.workspaceId, teamId: world.teamId, networkEnabled: false });
  return workspace.readTextFile(path);
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
