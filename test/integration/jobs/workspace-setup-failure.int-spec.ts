import { readFileSync } from 'node:fs';
import { signedUpClient } from '../../support/http-client';
import { startStack, TestStack, waitFor } from '../../support/api-harness';

// A sandbox that cannot start (here: an image that does not exist) must not show Docker's words to
// users: the workspace says what happened and what to do, and the details go to the worker log.
describe('workspace setup failure', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SANDBOX_IMAGE: 'h-sandbox:no-such-tag-for-tests' } });
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should show a generic status to users and log the Docker error', async () => {
    const { client } = await signedUpClient(stack.url, 'setup-fail');
    const team = await client.post('/api/v1/teams', { name: 'Failing setup team' });
    const ws = await client.post(`/api/v1/teams/${team.body.id}/workspaces`, { name: 'broken' });
    const failed = await waitFor('setup to fail', async () => {
      const res = await client.get(`/api/v1/workspaces/${ws.body.id}`);
      return res.body.status === 'error' ? res.body : null;
    });
    expect(failed.statusMessage).toBe('The sandbox could not be started. H retries on its own; if this stays, an admin can find the cause in the worker log.');
    expect(JSON.stringify(failed)).not.toMatch(/no-such-tag|No such image|docker/i);
    await waitFor('the cause in the log', async () => /sandbox setup failed[\s\S]*no-such-tag-for-tests|no-such-tag-for-tests[\s\S]*sandbox setup failed/.test(readFileSync(stack.logFile, 'utf8')));
  });
});
