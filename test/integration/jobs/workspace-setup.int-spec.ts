import Docker from 'dockerode';
import { signedUpClient } from '../../support/http-client';
import { startStack, TestStack, waitFor } from '../../support/api-harness';

describe('workspace setup job (api -> queue -> worker -> database)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });

  afterAll(async () => {
    await stack?.close();
  });

  const containersOf = async (workspaceId: string) =>
    (await new Docker().listContainers({ all: true })).filter((c) => c.Names.some((n) => n === `/${stack.sandboxPrefix}ws-${workspaceId}`));

  it('should mark a new workspace ready once the worker has run its setup job', async () => {
    const { client } = await signedUpClient(stack.url, 'setup');
    const team = await client.post('/api/v1/teams', { name: 'Setup team' });
    const created = await client.post(`/api/v1/teams/${team.body.id}/workspaces`, { name: 'svc' });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('provisioning');

    const ready = await waitFor('workspace to become ready', async () => {
      const res = await client.get(`/api/v1/workspaces/${created.body.id}`);
      return res.body.status === 'ready' ? res.body : null;
    });
    expect(ready.setupAt).toEqual(expect.any(String));
    // Setup gave the workspace its own running sandbox container.
    const [container] = await containersOf(created.body.id);
    expect(container?.State).toBe('running');
  });

  it('should remove the sandbox container when the workspace is deleted', async () => {
    const { client } = await signedUpClient(stack.url, 'teardown');
    const team = await client.post('/api/v1/teams', { name: 'Teardown team' });
    const ws = await client.post(`/api/v1/teams/${team.body.id}/workspaces`, { name: 'gone' });
    await waitFor('workspace ready', async () => (await client.get(`/api/v1/workspaces/${ws.body.id}`)).body.status === 'ready');
    expect(await containersOf(ws.body.id)).toHaveLength(1);

    expect((await client.delete(`/api/v1/workspaces/${ws.body.id}`)).status).toBe(204);
    await waitFor('sandbox removed', async () => (await containersOf(ws.body.id)).length === 0);
    expect((await client.get(`/api/v1/workspaces/${ws.body.id}`)).status).toBe(404);
  });
});
