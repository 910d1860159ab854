import { startStack, TestStack } from '../../support/api-harness';
import { TeamFixture, teamWithRoles } from '../api/team-fixture';
import { execInSandbox, expectError, filesApi } from '../files/files-fixture';

const DIFF_MAX = 4096;

// Issue 10, point 8: Source Control, with git run in the workspace's real Docker sandbox.
describe('Source Control API', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let git: (route: string) => string;
  let files: ReturnType<typeof filesApi>;
  const sh = (command: string) => execInSandbox(stack.sandboxPrefix, f.workspaceId, command);
  const write = async (path: string, content: string) => {
    const res = await f.member.client.request('PUT', files.content(path), { content }, { 'if-match': '*' });
    if (res.status === 412) expect((await f.member.client.request('PUT', files.content(path), { content })).status).toBe(201);
    else expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    stack = await startStack({ env: { SCM_DIFF_MAX_BYTES: String(DIFF_MAX) } });
    f = await teamWithRoles(stack.url, 'scm');
    git = (route) => `/api/v1/workspaces/${f.workspaceId}/git/${route}`;
    files = filesApi(f.workspaceId);
    // The first call starts the sandbox; the rest of the file reuses it.
    expect((await f.member.client.post(files.entry('README.md'), { type: 'file', content: '# hello\n' })).status).toBe(201);
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should say a workspace without git is not initialized, refuse repository work with 409, and init it', async () => {
    expect((await f.viewer.client.get(git('status'))).body).toEqual({ initialized: false });
    expectError(await f.member.client.post(git('stage'), { paths: ['README.md'] }), 409, 'NOT_A_REPOSITORY');
    expectError(await f.member.client.get(git('branches')), 409, 'NOT_A_REPOSITORY');
    expectError(await f.viewer.client.post(git('init'), {}), 403, 'FORBIDDEN');

    const init = await f.member.client.post(git('init'), {});
    expect(init.status).toBe(200);
    expect(init.body).toMatchObject({ initialized: true, branch: 'main', head: null, untracked: [{ path: 'README.md', kind: 'untracked' }] });
    expect(await sh('test -d .git && echo yes')).toContain('yes');
    // Again: nothing changes.
    expect((await f.member.client.post(git('init'), {})).body).toMatchObject({ initialized: true, branch: 'main' });
    expect((await f.viewer.client.get(git('log'))).body).toEqual({ commits: [], hasMore: false });
  });

  it('should stage, unstage and commit as the H user, and show it in the log', async () => {
    const m = f.member.client;
    const staged = await m.post(git('stage'), { paths: ['README.md'] });
    expect(staged.status).toBe(200);
    expect(staged.body).toMatchObject({ staged: [{ path: 'README.md', kind: 'added' }], untracked: [] });
    // Unstaging before the first commit (no HEAD yet) leaves the file untracked again.
    expect((await m.post(git('unstage'), { paths: ['README.md'] })).body).toMatchObject({ staged: [], untracked: [{ path: 'README.md' }] });
    expect((await m.post(git('stage'), { all: true })).body.staged).toEqual([{ path: 'README.md', kind: 'added' }]);

    const commit = await m.post(git('commit'), { message: 'First commit\n\nWith a body.' });
    expect(commit.status).toBe(201);
    expect(commit.body).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{40}$/), subject: 'First commit', branch: 'main' });
    // Author and committer are the account (not the sandbox's user): as git itself records them.
    expect(await sh('git log -1 --format="%an <%ae>|%cn <%ce>|%B"')).toBe(`scm-member <${f.member.email}>|scm-member <${f.member.email}>|First commit\n\nWith a body.\n\n`);

    expectError(await m.post(git('commit'), { message: 'nothing staged' }), 409, 'GIT_REFUSED');
    expectError(await m.post(git('commit'), { message: '   ' }), 400, 'VALIDATION_FAILED');

    const log = await f.viewer.client.get(git('log'));
    expect(log.body).toEqual({
      commits: [{ hash: commit.body.hash, author: 'scm-member', email: f.member.email, date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), subject: 'First commit' }],
      hasMore: false,
    });
  });

  it('should report untracked, modified and staged files with each diff side', async () => {
    const m = f.member.client;
    await write('README.md', '# hello\nstaged line\n');
    await m.post(git('stage'), { paths: ['README.md'] });
    await write('README.md', '# hello\nstaged line\nworking line\n');
    await write('src/new file.ts', 'export const x = 1;\n');

    const status = (await f.viewer.client.get(git('status'))).body;
    expect(status).toMatchObject({
      initialized: true,
      branch: 'main',
      head: expect.stringMatching(/^[0-9a-f]{40}$/),
      upstream: null,
      ahead: 0,
      behind: 0,
      staged: [{ path: 'README.md', kind: 'modified' }],
      unstaged: [{ path: 'README.md', kind: 'modified' }],
      untracked: [{ path: 'src/new file.ts', kind: 'untracked' }],
      conflicted: [],
      truncated: false,
    });

    const stagedDiff = (await f.viewer.client.get(`${git('diff')}?path=README.md&staged=true`)).body;
    expect(stagedDiff).toMatchObject({ path: 'README.md', staged: true, original: { text: '# hello\n', exists: true }, modified: { text: '# hello\nstaged line\n' } });
    expect(stagedDiff.patch).toContain('+staged line');
    const workDiff = (await f.viewer.client.get(`${git('diff')}?path=README.md`)).body;
    expect(workDiff).toMatchObject({ staged: false, original: { text: '# hello\nstaged line\n' }, modified: { text: '# hello\nstaged line\nworking line\n' } });
    expect(workDiff.patch).toMatch(/^\+working line$/m);
    expect(workDiff.patch).not.toContain('+staged line');
    const newDiff = (await f.viewer.client.get(`${git('diff')}?path=${encodeURIComponent('src/new file.ts')}`)).body;
    expect(newDiff).toMatchObject({ original: { exists: false, text: '' }, modified: { exists: true, text: 'export const x = 1;\n' } });
    expect(newDiff.patch).toContain('+export const x = 1;');
    expectError(await f.viewer.client.get(`${git('diff')}?path=nowhere.txt`), 404, 'FILE_NOT_FOUND');
  });

  it('should leave out binary and too large sides', async () => {
    await sh(`printf 'a\\0b' > bin.dat && head -c ${DIFF_MAX + 10} /dev/zero | tr '\\0' x > big.txt`);
    const bin = (await f.viewer.client.get(`${git('diff')}?path=bin.dat`)).body;
    expect(bin.modified).toEqual({ text: '', exists: true, binary: true, tooLarge: false });
    const big = (await f.viewer.client.get(`${git('diff')}?path=big.txt`)).body;
    expect(big.modified).toEqual({ text: '', exists: true, binary: false, tooLarge: true });
    await sh('rm bin.dat big.txt');
  });

  it('should discard a tracked change back to the index and delete an untracked file', async () => {
    const m = f.member.client;
    const after = await m.post(git('discard'), { paths: ['README.md', 'src/new file.ts'] });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ staged: [{ path: 'README.md' }], unstaged: [], untracked: [] });
    expect(await sh('cat README.md; ls src 2>&1 || true')).toBe('# hello\nstaged line\n');
    expectError(await m.post(git('discard'), { all: true }), 400, 'VALIDATION_FAILED');
    const done = await m.post(git('commit'), { message: 'Second' });
    expect(done.status).toBe(201);
  });

  it('should create and switch branches, and refuse a switch that would overwrite local changes with 409', async () => {
    const m = f.member.client;
    const created = await m.post(git('branches'), { name: 'feature/x' });
    expect(created.status).toBe(201);
    expect(created.body.current).toBe('feature/x');
    expect(created.body.branches.map((b: { name: string }) => b.name).sort()).toEqual(['feature/x', 'main']);

    await write('README.md', 'on the feature\n');
    await m.post(git('stage'), { all: true });
    expect((await m.post(git('commit'), { message: 'Feature work' })).status).toBe(201);
    // A change to the same file, not committed: switching back would overwrite it.
    await write('README.md', 'uncommitted\n');
    const refused = await m.post(git('checkout'), { branch: 'main' });
    expectError(refused, 409, 'GIT_CONFLICT');
    expect(refused.body.error.message).toMatch(/README\.md[\s\S]*Commit, stash or discard/);
    expect((await f.viewer.client.get(git('status'))).body.branch).toBe('feature/x');

    await m.post(git('discard'), { paths: ['README.md'] });
    const switched = await m.post(git('checkout'), { branch: 'main' });
    expect(switched.status).toBe(200);
    expect(switched.body.branch).toBe('main');
    expect(await sh('cat README.md')).toBe('# hello\nstaged line\n');
    expectError(await m.post(git('checkout'), { branch: 'no-such-branch' }), 404, 'GIT_REF_NOT_FOUND');
    expectError(await m.post(git('branches'), { name: 'main' }), 409, 'GIT_REFUSED');
    // Made without switching, from another branch.
    const side = await m.post(git('branches'), { name: 'side', from: 'feature/x', checkout: false });
    expect(side.body.current).toBe('main');
    expect(side.body.branches.find((b: { name: string }) => b.name === 'side').commit).toBe(side.body.branches.find((b: { name: string }) => b.name === 'feature/x').commit);
  });

  it.each(['bad name', '-f', 'a..b', 'main~1', 'x.lock', '.hidden', 'a//b', 'HEAD@{1}'])('should refuse the branch name %j with 400 before git', async (name) => {
    expectError(await f.member.client.post(git('branches'), { name }), 400, 'INVALID_REF_NAME');
    expectError(await f.member.client.post(git('checkout'), { branch: name }), 400, 'INVALID_REF_NAME');
  });

  it('should page the log', async () => {
    const page1 = (await f.viewer.client.get(`${git('log')}?limit=1`)).body;
    expect(page1.commits.map((c: { subject: string }) => c.subject)).toEqual(['Second']);
    expect(page1.hasMore).toBe(true);
    const page2 = (await f.viewer.client.get(`${git('log')}?limit=1&skip=1`)).body;
    expect(page2).toEqual({ commits: [expect.objectContaining({ subject: 'First commit' })], hasMore: false });
    expectError(await f.viewer.client.get(`${git('log')}?limit=0`), 400, 'VALIDATION_FAILED');
    expectError(await f.viewer.client.get(`${git('log')}?limit=201`), 400, 'VALIDATION_FAILED');
  });

  it("should diff a staged rename against the original's content", async () => {
    await sh('git mv README.md READ-ME.md');
    const status = (await f.viewer.client.get(git('status'))).body;
    expect(status.staged).toEqual([{ path: 'READ-ME.md', kind: 'renamed', originalPath: 'README.md' }]);
    const diff = (await f.viewer.client.get(`${git('diff')}?path=READ-ME.md&staged=true&originalPath=README.md`)).body;
    expect(diff).toMatchObject({ original: { text: '# hello\nstaged line\n', exists: true }, modified: { text: '# hello\nstaged line\n', exists: true } });
    expect(diff.patch).toMatch(/rename from README\.md\nrename to READ-ME\.md/);
    expectError(await f.viewer.client.get(`${git('diff')}?path=READ-ME.md&staged=true&originalPath=../x`), 400, 'PATH_OUTSIDE_WORKSPACE');
    await sh('git mv READ-ME.md README.md');
  });

  it('should refuse paths that leave the workspace with 400, symlinks included', async () => {
    const m = f.member.client;
    for (const path of ['../etc/passwd', '/etc/passwd', 'a/../../x']) {
      expectError(await m.post(git('stage'), { paths: [path] }), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await m.post(git('discard'), { paths: [path] }), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await m.get(`${git('diff')}?path=${encodeURIComponent(path)}`), 400, 'PATH_OUTSIDE_WORKSPACE');
    }
    await sh('ln -sfn /etc etc-link');
    expectError(await m.post(git('stage'), { paths: ['etc-link/passwd'] }), 400, 'PATH_OUTSIDE_WORKSPACE');
    expectError(await m.get(`${git('diff')}?path=etc-link/passwd`), 400, 'PATH_OUTSIDE_WORKSPACE');
    await sh('rm etc-link');
  });

  it('should let a viewer read but refuse every write, and answer an outsider 404', async () => {
    const v = f.viewer.client;
    for (const [route, body] of [
      ['init', {}],
      ['stage', { all: true }],
      ['unstage', { all: true }],
      ['discard', { paths: ['README.md'] }],
      ['commit', { message: 'viewer' }],
      ['branches', { name: 'viewer-branch' }],
      ['checkout', { branch: 'feature/x' }],
    ] as const) {
      expectError(await v.post(git(route), body), 403, 'FORBIDDEN');
    }
    expect((await v.get(git('branches'))).status).toBe(200);
    const o = f.outsider.client;
    for (const route of ['status', 'branches', 'log', 'diff?path=README.md']) expectError(await o.get(git(route)), 404, 'NOT_FOUND');
    expectError(await o.post(git('commit'), { message: 'outsider' }), 404, 'NOT_FOUND');
    expectError(await o.post(git('checkout'), { branch: 'feature/x' }), 404, 'NOT_FOUND');
    // Nothing of it happened.
    expect((await f.member.client.get(git('status'))).body.branch).toBe('main');
    expect((await f.member.client.get(git('log'))).body.commits[0].subject).toBe('Second');
  });
});
