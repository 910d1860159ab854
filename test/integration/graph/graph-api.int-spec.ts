import { startStack, TestStack } from '../../support/api-harness';
import { teamWithRoles, type TeamFixture } from '../api/team-fixture';
import { expectError, filesApi } from '../files/files-fixture';
import { waitFor } from '../sandbox/sandbox-test-kit';

// The IDE status bar's source: GET …/graph/status asks the workspace's sandbox for its knowledge
// graph's state, for anyone who may view the workspace.
describe('graph status API', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const status = (id: string) => `/api/v1/workspaces/${id}/graph/status`;

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'graph');
    const files = filesApi(f.workspaceId);
    expect((await f.member.client.post(files.entry('src/a.ts'), { type: 'file', content: 'export const a = 1;\nexport function b() {}\n' })).status).toBe(201);
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('shows a viewer the files and symbols the sandbox graphed', async () => {
    const body = await waitFor(async () => {
      const res = await f.viewer.client.get(status(f.workspaceId));
      return res.status === 200 && res.body.state === 'ready' && res.body.symbols === 2 ? res.body : null;
    }, 30_000, 'the graph of src/a.ts');
    expect(body).toMatchObject({ state: 'ready', files: 1, symbols: 2, error: null });
    expect(Date.parse(body.builtAt)).not.toBeNaN();
  });

  it('answers an outsider 404', async () => {
    expectError(await f.outsider.client.get(status(f.workspaceId)), 404, 'NOT_FOUND');
  });
});
