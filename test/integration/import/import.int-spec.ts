import type { WorkspaceStatusEvent } from '@h/contracts';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { existsSync } from 'node:fs';
import { GitServer, SshGitServer, startGitServer, startSshGitServer } from '../../support/git-server';
import { TeamFixture, teamWithRoles } from '../api/team-fixture';
import { connectSocket } from '../../support/socket-client';
import { execInSandbox, expectError, rawRequest } from '../files/files-fixture';
import { recordSecrets } from '../security/secret-registry';
import { makeTarGz, makeZip, readTarGz, readZip } from './archive-fixture';

const ARCHIVE_MAX = 256 * 1024;
const UNPACKED_MAX = 1024 * 1024;

// Issue 10, point 1: a workspace from a git remote (credential on the host only) or an archive,
// progress while it is brought in, failures that say what to do, and the archive back out.
describe('bringing a project in and taking it out', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let git: GitServer;

  const ws = (id: string) => `/api/v1/workspaces/${id}`;
  const importUrl = (name: string) => `/api/v1/teams/${f.teamId}/workspaces/import?name=${encodeURIComponent(name)}`;

  /** Polls the workspace until it leaves provisioning; returns it and every status message seen. */
  async function settled(id: string): Promise<{ workspace: any; messages: string[] }> {
    const messages: string[] = [];
    const workspace = await waitFor(
      `workspace ${id} to finish setup`,
      async () => {
        const res = await f.member.client.get(ws(id));
        if (res.body.statusMessage && messages.at(-1) !== res.body.statusMessage) messages.push(res.body.statusMessage);
        return res.body.status !== 'provisioning' ? res.body : null;
      },
      90_000,
    );
    return { workspace, messages };
  }

  async function cloneWorkspace(name: string, source: Record<string, unknown>): Promise<string> {
    const res = await f.member.client.post(`/api/v1/teams/${f.teamId}/workspaces`, { name, source: { kind: 'git', ...source } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('provisioning');
    return res.body.id;
  }

  beforeAll(async () => {
    git = await startGitServer();
    recordSecrets(git.token);
    await git.createRepo('app', { 'README.md': '# app\n', 'src/main.txt': 'main v1\n' });
    stack = await startStack({
      worker: true,
      env: {
        // Every case here makes a workspace with a running sandbox.
        TEAM_MAX_RUNNING_SANDBOXES: '40',
        TEAM_MAX_WORKSPACES: '40',
        WORKSPACE_ARCHIVE_MAX_BYTES: String(ARCHIVE_MAX),
        WORKSPACE_ARCHIVE_MAX_UNPACKED_BYTES: String(UNPACKED_MAX),
      },
    });
    f = await teamWithRoles(stack.url, 'import');
  });

  afterAll(async () => {
    await stack?.close();
    await git?.close();
  });

  describe('from a git remote over HTTPS with a token', () => {
    let id: string;

    beforeAll(async () => {
      id = await cloneWorkspace('cloned', { url: git.url('app'), token: git.token, branch: 'main' });
    });

    it('should clone on the host, show progress, and put the files and .git in the sandbox', async () => {
      const { workspace } = await settled(id);
      expect(workspace).toMatchObject({ status: 'ready', statusMessage: null });
      expect(await execInSandbox(stack.sandboxPrefix, id, 'cat README.md src/main.txt')).toBe('# app\nmain v1\n');
      expect(await execInSandbox(stack.sandboxPrefix, id, 'git log --format=%s')).toBe('initial commit\n');
      expect((await execInSandbox(stack.sandboxPrefix, id, 'git remote get-url origin')).trim()).toBe(git.url('app'));
      // The server saw the token on every request after its challenge.
      expect(git.requests.filter((r) => r.path.startsWith('/app.git')).some((r) => r.authorized)).toBe(true);
    });

    it('should leave no trace of the token in the container: not in /workspace, not in any process environment', async () => {
      await settled(id);
      const files = await execInSandbox(stack.sandboxPrefix, id, `grep -r -l -F '${git.token}' /workspace; echo "rc=$?"`);
      expect(files.trim()).toBe('rc=1');
      const basic = Buffer.from(`git:${git.token}`).toString('base64');
      const envs = await execInSandbox(stack.sandboxPrefix, id, `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c -F -e '${git.token}' -e '${basic}'; true`);
      expect(envs.trim()).toBe('0');
      expect(await execInSandbox(stack.sandboxPrefix, id, 'cat .git/config')).not.toContain(git.token);
    });

    it('should show the remote to a viewer without the token', async () => {
      const res = await f.viewer.client.get(`${ws(id)}/git/remote`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ url: git.url('app'), branch: 'main', authKind: 'token', username: 'git', hasCredential: true });
      expect(res.text).not.toContain(git.token);
      expect((await f.member.client.get(ws(id))).text).not.toContain(git.token);
    });
  });

  describe('failures that say what to do', () => {
    it('should end in error naming the token when the remote refuses it, and clone after the token is fixed and setup retried', async () => {
      const id = await cloneWorkspace('bad-token', { url: git.url('app'), token: 'wrong-token-0123456789' });
      const { workspace } = await settled(id);
      expect(workspace.status).toBe('error');
      expect(workspace.statusMessage).toMatch(/check the token/);
      // Replacing the credential is for admins; a member may retry.
      expectError(await f.member.client.put(`${ws(id)}/git/remote`, { url: git.url('app'), token: git.token }), 403, 'FORBIDDEN');
      const fixed = await f.admin.client.put(`${ws(id)}/git/remote`, { url: git.url('app'), token: git.token });
      expect(fixed.status).toBe(200);
      expect(fixed.text).not.toContain(git.token);
      // A viewer's page watching the workspace hears the retried setup's progress and its end as
      // they happen (workspace.status over Socket.IO), no polling; an outsider may not watch.
      const viewer = await connectSocket(stack.url, f.viewer.client);
      const heard: WorkspaceStatusEvent[] = [];
      viewer.on('workspace.status', (e: WorkspaceStatusEvent) => heard.push(e));
      expect(await viewer.emitWithAck('workspace.watch', { workspaceId: id })).toMatchObject({ ok: true, data: { workspaceId: id, status: 'error' } });
      const outsider = await connectSocket(stack.url, f.outsider.client);
      expect(await outsider.emitWithAck('workspace.watch', { workspaceId: id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      outsider.disconnect();
      const retried = await f.member.client.post(`${ws(id)}/setup/retry`);
      expect(retried.status).toBe(200);
      await waitFor('workspace.status ready', async () => heard.find((e) => e.status === 'ready'), 90_000);
      expect(heard.some((e) => e.status === 'provisioning' && /Cloning/.test(e.statusMessage ?? ''))).toBe(true);
      expect(heard.every((e) => e.workspaceId === id)).toBe(true);
      viewer.disconnect();
      expect((await settled(id)).workspace.status).toBe('ready');
      expect(await execInSandbox(stack.sandboxPrefix, id, 'cat README.md')).toBe('# app\n');
    });

    it('should say when the branch does not exist', async () => {
      const id = await cloneWorkspace('bad-branch', { url: git.url('app'), token: git.token, branch: 'nope' });
      const { workspace } = await settled(id);
      expect(workspace).toMatchObject({ status: 'error', statusMessage: expect.stringMatching(/branch "nope" was not found/) });
    });

    it('should refuse bad URLs and keys before creating anything', async () => {
      const post = (source: Record<string, unknown>) => f.member.client.post(`/api/v1/teams/${f.teamId}/workspaces`, { name: 'refused', source: { kind: 'git', ...source } });
      expectError(await post({ url: 'ext::sh -c touch% /tmp/pwned' }), 400, 'INVALID_GIT_URL');
      expectError(await post({ url: 'file:///etc' }), 400, 'INVALID_GIT_URL');
      expectError(await post({ url: `http://git:${git.token}@127.0.0.1/app.git` }), 400, 'INVALID_GIT_URL');
      expectError(await post({ url: 'git@git.example.org:team/app.git', privateKey: 'ssh-ed25519 AAAAC3Nza… me@laptop' }), 400, 'INVALID_SSH_KEY');
      const names = (await f.member.client.get(`/api/v1/teams/${f.teamId}/workspaces`)).body.items.map((w: { name: string }) => w.name);
      expect(names).not.toContain('refused');
    });
  });

  // Needs Debian's openssh-server (/usr/sbin/sshd); without it the ssh command is covered by
  // libs/git-remote's unit tests only.
  (existsSync('/usr/sbin/sshd') ? describe : describe.skip)('from a git remote over SSH with a deploy key (needs /usr/sbin/sshd)', () => {
    let ssh: SshGitServer;

    beforeAll(async () => {
      ssh = await startSshGitServer();
      await ssh.createRepo('svc', { 'README.md': '# over ssh\n' });
    });

    afterAll(async () => {
      await ssh?.close();
    });

    it('should clone with the key on the host, leave the key out of the sandbox, and push back over ssh', async () => {
      const id = await cloneWorkspace('over-ssh', { url: ssh.url('svc'), privateKey: ssh.privateKey });
      expect((await settled(id)).workspace).toMatchObject({ status: 'ready' });
      expect(await execInSandbox(stack.sandboxPrefix, id, 'cat README.md')).toBe('# over ssh\n');
      const keyLine = ssh.privateKey.split('\n')[2];
      expect((await execInSandbox(stack.sandboxPrefix, id, `grep -r -l -F '${keyLine}' /workspace /tmp /home 2>/dev/null; echo "rc=$?"`)).trim()).toBe('rc=1');
      const remote = await f.viewer.client.get(`${ws(id)}/git/remote`);
      expect(remote.body).toMatchObject({ authKind: 'ssh_key', hasCredential: true });
      expect(remote.text).not.toContain('PRIVATE KEY');
      await execInSandbox(stack.sandboxPrefix, id, "echo more > more.txt && git add more.txt && git -c user.name=Dev -c user.email=dev@example.org commit -q -m 'more over ssh'");
      expect((await f.member.client.post(`${ws(id)}/git/push`, {})).status).toBe(200);
      expect((await ssh.git('svc', ['log', '--format=%s', '-1', 'main'])).trim()).toBe('more over ssh');
    });

    it('should end in error naming the deploy key when the server refuses it', async () => {
      const id = await cloneWorkspace('ssh-bad-key', { url: ssh.url('svc'), privateKey: ssh.otherKey });
      expect((await settled(id)).workspace).toMatchObject({ status: 'error', statusMessage: expect.stringMatching(/check the deploy key/) });
    });
  });

  describe('from an archive', () => {
    const files = {
      'README.md': '# from an archive\n',
      'src/index.js': 'console.log("hi")\n',
      'bin/run.sh': '#!/bin/sh\necho run\n',
    };
    const entries = () => [
      { name: 'src/', type: 'directory' as const },
      ...Object.entries(files).map(([name, content]) => ({ name, content, mode: name.endsWith('.sh') ? 0o755 : 0o644 })),
      { name: 'docs-link', type: 'symlink' as const, linkname: 'README.md' },
    ];

    it.each([
      ['tar.gz', () => makeTarGz(entries())],
      ['zip', async () => makeZip(entries())],
    ])('should unpack a %s into the sandbox and download the same files as tar.gz and as zip', async (kind, make) => {
      const res = await rawRequest(f.member.client, 'POST', importUrl(`from-${kind}`), await make(), { 'content-type': 'application/octet-stream' });
      expect(res.status).toBe(201);
      const { workspace, messages } = await settled(res.json.id);
      expect(workspace.status).toBe('ready');
      expect(messages.some((m) => /Unpacking/.test(m)) || messages.length === 0).toBe(true);
      expect(await execInSandbox(stack.sandboxPrefix, res.json.id, 'cat README.md && readlink docs-link && test -x bin/run.sh && echo exec')).toBe('# from an archive\nREADME.md\nexec\n');

      const down = await rawRequest(f.viewer.client, 'GET', `${ws(res.json.id)}/archive?format=tar.gz`, undefined);
      expect(down.status).toBe(200);
      expect(down.headers.get('content-type')).toBe('application/gzip');
      expect(down.headers.get('content-disposition')).toContain(`from-${kind}.tar.gz`);
      const back = await readTarGz(down.bytes);
      for (const [name, content] of Object.entries(files)) expect(back.get(name)?.toString()).toBe(content);

      // The same tree as a zip: contents, the exec bit, the folder and the link kept.
      const zip = await rawRequest(f.viewer.client, 'GET', `${ws(res.json.id)}/archive?format=zip`, undefined);
      expect(zip.status).toBe(200);
      expect(zip.headers.get('content-type')).toBe('application/zip');
      expect(zip.headers.get('content-disposition')).toContain(`from-${kind}.zip`);
      const unzipped = await readZip(zip.bytes);
      for (const [name, content] of Object.entries(files)) expect(unzipped.get(name)?.content.toString()).toBe(content);
      expect((unzipped.get('bin/run.sh')?.mode ?? 0) & 0o111).not.toBe(0);
      expect(unzipped.get('docs-link')).toEqual({ content: Buffer.from('README.md'), mode: 0o120777 });
      expect(unzipped.has('src/')).toBe(true);
      expect([...unzipped.keys()].some((n) => n.startsWith('/') || n.startsWith('./') || n.includes('lost+found'))).toBe(false);
    });

    it.each([
      ['zip with ../', () => makeZip([{ name: '../../etc/evil', content: 'x' }])],
      ['zip with an absolute path', () => makeZip([{ name: '/etc/evil', content: 'x' }])],
      ['zip with a link out', () => makeZip([{ name: 'etc', type: 'symlink', linkname: '/etc' }])],
      ['tar.gz with ../', () => makeTarGz([{ name: 'a/../../evil', content: 'x' }])],
      ['tar.gz with a link out', () => makeTarGz([{ name: 'up', type: 'symlink', linkname: '../../..' }])],
      ['tar.gz writing through its own link', () => makeTarGz([{ name: 'l', type: 'symlink', linkname: '.' }, { name: 'l/x', content: 'x' }])],
    ])('should refuse a %s with 422 ARCHIVE_UNSAFE_ENTRY and create nothing', async (_what, make) => {
      const before = (await f.member.client.get(`/api/v1/teams/${f.teamId}/workspaces`)).body.items.length;
      const res = await rawRequest(f.member.client, 'POST', importUrl('slip'), await make(), { 'content-type': 'application/octet-stream' });
      expectError(res, 422, 'ARCHIVE_UNSAFE_ENTRY');
      expect((await f.member.client.get(`/api/v1/teams/${f.teamId}/workspaces`)).body.items.length).toBe(before);
    });

    it('should refuse an upload over WORKSPACE_ARCHIVE_MAX_BYTES with 413, one that unpacks past the cap with 422, and a non-archive with 422', async () => {
      const big = await rawRequest(f.member.client, 'POST', importUrl('big'), Buffer.alloc(ARCHIVE_MAX + 1, 7), { 'content-type': 'application/octet-stream' });
      expectError(big, 413, 'ARCHIVE_TOO_LARGE');
      expect(big.json.error.message).toContain('WORKSPACE_ARCHIVE_MAX_BYTES');
      const bomb = await makeTarGz([{ name: 'zeros.bin', content: Buffer.alloc(UNPACKED_MAX + 1) }]);
      expect(bomb.length).toBeLessThan(ARCHIVE_MAX);
      expectError(await rawRequest(f.member.client, 'POST', importUrl('bomb'), bomb, { 'content-type': 'application/octet-stream' }), 422, 'ARCHIVE_UNPACKED_TOO_LARGE');
      expectError(await rawRequest(f.member.client, 'POST', importUrl('text'), Buffer.from('just text'), { 'content-type': 'application/octet-stream' }), 422, 'ARCHIVE_INVALID');
    });

    it('should let viewers download but not import, and answer another team 404', async () => {
      const zip = makeZip([{ name: 'a.txt', content: 'a' }]);
      expectError(await rawRequest(f.viewer.client, 'POST', importUrl('viewer'), zip, { 'content-type': 'application/zip' }), 403, 'FORBIDDEN');
      expectError(await rawRequest(f.outsider.client, 'GET', `${ws(f.workspaceId)}/archive`, undefined), 404, 'NOT_FOUND');
      expectError(await rawRequest(f.outsider.client, 'GET', `${ws(f.workspaceId)}/archive?format=zip`, undefined), 404, 'NOT_FOUND');
      expectError(await rawRequest(f.viewer.client, 'GET', `${ws(f.workspaceId)}/archive?format=rar`, undefined), 400, 'VALIDATION_FAILED');
      expectError(await rawRequest(f.outsider.client, 'POST', `/api/v1/teams/${f.teamId}/workspaces/import?name=x`, zip, { 'content-type': 'application/zip' }), 404, 'NOT_FOUND');
    });
  });

  describe('fetch, pull and push through the stored credential', () => {
    let id: string;
    const sh = (command: string) => execInSandbox(stack.sandboxPrefix, id, command);
    const commit = (file: string, content: string, message: string) =>
      sh(`printf '${content}' > ${file} && git add ${file} && git -c user.name=Dev -c user.email=dev@example.org commit -q -m '${message}' && git rev-parse HEAD`);

    beforeAll(async () => {
      await git.createRepo('shared', { 'a.txt': 'a1\n' });
      id = await cloneWorkspace('shared', { url: git.url('shared'), token: git.token });
      expect((await settled(id)).workspace.status).toBe('ready');
    });

    it('should push a local commit to the remote', async () => {
      const sha = (await commit('b.txt', 'b1\\n', 'add b')).trim();
      const res = await f.member.client.post(`${ws(id)}/git/push`, { setUpstream: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ operation: 'push', branch: 'main', head: sha, updated: [{ ref: 'refs/heads/main', to: sha }] });
      expect((await git.git('shared', ['log', '--format=%s', 'main'])).trim().split('\n')).toEqual(['add b', 'initial commit']);
      expect((await sh('git rev-parse origin/main')).trim()).toBe(sha);
    });

    it('should fetch and pull what a teammate pushed', async () => {
      const theirs = await git.commit('shared', { 'c.txt': 'from a teammate\n' }, 'teammate adds c');
      const fetched = await f.member.client.post(`${ws(id)}/git/fetch`);
      expect(fetched.status).toBe(200);
      expect(fetched.body.updated).toEqual([expect.objectContaining({ ref: 'refs/remotes/origin/main', to: theirs })]);
      const pulled = await f.member.client.post(`${ws(id)}/git/pull`);
      expect(pulled.status).toBe(200);
      expect(pulled.body).toMatchObject({ operation: 'pull', branch: 'main', merge: 'fast-forward', head: theirs });
      expect(await sh('cat c.txt')).toBe('from a teammate\n');
    });

    it('should answer 409 GIT_PUSH_REJECTED when the remote moved on, and 409 GIT_MERGE_CONFLICT when pulling conflicts', async () => {
      await git.commit('shared', { 'a.txt': 'theirs\n' }, 'teammate edits a');
      await commit('a.txt', 'mine\\n', 'I edit a');
      const push = await f.member.client.post(`${ws(id)}/git/push`, {});
      expectError(push, 409, 'GIT_PUSH_REJECTED');
      expect(push.body.error.message).toMatch(/Pull first/);
      const pull = await f.member.client.post(`${ws(id)}/git/pull`);
      expectError(pull, 409, 'GIT_MERGE_CONFLICT');
      expect(pull.body.error.message).toMatch(/a\.txt.*resolve the conflicts and commit/);
      await sh('git merge --abort');
    });

    it('should refuse viewers and answer another team 404', async () => {
      expectError(await f.viewer.client.post(`${ws(id)}/git/push`, {}), 403, 'FORBIDDEN');
      expectError(await f.viewer.client.post(`${ws(id)}/git/fetch`), 403, 'FORBIDDEN');
      expectError(await f.outsider.client.post(`${ws(id)}/git/fetch`), 404, 'NOT_FOUND');
      expectError(await f.outsider.client.get(`${ws(id)}/git/remote`), 404, 'NOT_FOUND');
    });

    it('should answer 409 GIT_NO_REMOTE for a workspace without a remote', async () => {
      expectError(await f.member.client.post(`${ws(f.workspaceId)}/git/fetch`), 409, 'GIT_NO_REMOTE');
    });
  });
});
