import { createHash, randomBytes } from 'node:crypto';
import { startStack, TestStack } from '../../support/api-harness';
import { createToken, bearerClient, TeamFixture, teamWithRoles } from '../api/team-fixture';
import { execInSandbox, expectError, filesApi, rawRequest, sha256Etag, uniquePath } from './files-fixture';

const UPLOAD_MAX = 64 * 1024;

// Issue 10, point 2: the file API over the workspace's real Docker sandbox.
describe('file API', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let api: ReturnType<typeof filesApi>;

  beforeAll(async () => {
    stack = await startStack({ env: { FILE_UPLOAD_MAX_BYTES: String(UPLOAD_MAX), FILE_TREE_MAX_ENTRIES: '200' } });
    f = await teamWithRoles(stack.url, 'files');
    api = filesApi(f.workspaceId);
    // The first call starts the sandbox; the rest of the file reuses it.
    const first = await f.member.client.post(api.entry('README.md'), { type: 'file', content: '# hello\n' });
    expect(first.status).toBe(201);
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('roles', () => {
    it('should let a viewer list and read but refuse every write with 403', async () => {
      const v = f.viewer.client;
      expect((await v.get(api.tree())).status).toBe(200);
      const text = await v.get(api.text('README.md'));
      expect(text.status).toBe(200);
      expect(text.body).toMatchObject({ path: 'README.md', encoding: 'utf8', content: '# hello\n', etag: sha256Etag('# hello\n') });
      expect(text.headers.get('etag')).toBe(sha256Etag('# hello\n'));
      const raw = await rawRequest(v, 'GET', api.content('README.md'), undefined);
      expect(raw.status).toBe(200);
      expect(raw.bytes.toString()).toBe('# hello\n');

      expectError(await v.request('PUT', api.content('v.txt'), { content: 'x' }), 403, 'FORBIDDEN');
      expectError(await v.post(api.entry('v.txt'), { type: 'file' }), 403, 'FORBIDDEN');
      expectError(await v.post(api.move(), { from: 'README.md', to: 'R.md' }), 403, 'FORBIDDEN');
      expectError(await v.delete(api.entry('README.md')), 403, 'FORBIDDEN');
      expectError(await rawRequest(v, 'POST', api.upload('v.bin'), Buffer.from('x'), { 'content-type': 'application/octet-stream' }), 403, 'FORBIDDEN');
      // Nothing of it happened.
      expect((await f.owner.client.get(api.text('README.md'))).body.content).toBe('# hello\n');
      expectError(await f.owner.client.get(api.text('v.txt')), 404, 'FILE_NOT_FOUND');
    });

    it('should answer an outsider 404 for reads and writes alike, and a read-scoped token 403 on writes', async () => {
      const o = f.outsider.client;
      expectError(await o.get(api.tree()), 404, 'NOT_FOUND');
      expectError(await o.get(api.text('README.md')), 404, 'NOT_FOUND');
      expectError(await o.request('PUT', api.content('README.md'), { content: 'pwned' }, { 'if-match': '*' }), 404, 'NOT_FOUND');
      expectError(await o.delete(api.entry('README.md')), 404, 'NOT_FOUND');
      const token = await createToken(f.owner, f.teamId, { name: 'files-read', scopes: ['read'] });
      const bot = bearerClient(stack.url, token.secret);
      expect((await bot.get(api.text('README.md'))).status).toBe(200);
      expectError(await bot.request('PUT', api.content('README.md'), { content: 'x' }, { 'if-match': '*' }), 403, 'INSUFFICIENT_SCOPE');
      expect((await f.owner.client.get(api.text('README.md'))).body.content).toBe('# hello\n');
    });
  });

  describe('paths stay inside the workspace', () => {
    beforeAll(async () => {
      await execInSandbox(stack.sandboxPrefix, f.workspaceId, 'ln -sfn /etc etc-link && ln -sfn /etc/passwd passwd-link && ln -sfn ../../tmp tmp-link');
    });

    it.each([
      ['..', '../etc/passwd'],
      ['.. in the middle', 'src/../../etc/passwd'],
      ['absolute', '/etc/passwd'],
      ['absolute /workspace', '/workspace/README.md'],
    ])('should refuse %s with 400 before the sandbox', async (_what, path) => {
      for (const url of [api.text(path), api.content(path), api.tree(path)]) {
        const res = await f.owner.client.get(url);
        expectError(res, 400, 'PATH_OUTSIDE_WORKSPACE');
        // Worded by the api's own check (file-path.ts), not by sandboxd's resolver.
        expect(res.body.error.message).toMatch(/may not contain "\.\."|must be relative to the workspace root/);
      }
      expectError(await f.owner.client.request('PUT', api.content(path), { content: 'x' }, { 'if-match': '*' }), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await f.owner.client.delete(api.entry(path)), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await f.owner.client.post(api.move(), { from: 'README.md', to: path }), 400, 'PATH_OUTSIDE_WORKSPACE');
    });

    it('should refuse percent-encoded dot segments and NUL', async () => {
      const base = `/api/v1/workspaces/${f.workspaceId}/files`;
      expectError(await f.owner.client.get(`${base}/text?path=%2e%2e%2f%2e%2e%2fetc%2fpasswd`), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await f.owner.client.get(`${base}/text?path=a/%2E%2E/%2E%2E/etc/passwd`), 400, 'PATH_OUTSIDE_WORKSPACE');
      const nul = await f.owner.client.get(`${base}/text?path=README.md%00.png`);
      expect(nul.status).toBe(400);
    });

    it('should not read, list or write through a symlink that points outside', async () => {
      const c = f.owner.client;
      expectError(await c.get(api.text('passwd-link')), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await c.get(api.content('etc-link/passwd')), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await c.get(api.tree('etc-link')), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await c.request('PUT', api.content('etc-link/h-was-here'), { content: 'x' }), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await c.request('PUT', api.content('tmp-link/h-was-here'), { content: 'x' }), 400, 'PATH_OUTSIDE_WORKSPACE');
      expectError(await c.post(api.entry('etc-link/new-dir'), { type: 'directory' }), 400, 'PATH_OUTSIDE_WORKSPACE');
      expect(await execInSandbox(stack.sandboxPrefix, f.workspaceId, 'ls /tmp/h-was-here 2>&1 || true')).toMatch(/No such file/);
      // The links themselves are entries of the workspace: listed, and deletable without following them.
      const tree = await c.get(api.tree());
      expect(tree.body.entries).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'etc-link', type: 'symlink' })]));
      expect((await c.delete(api.entry('tmp-link'))).status).toBe(204);
      expect(await execInSandbox(stack.sandboxPrefix, f.workspaceId, 'test -d /etc && echo etc-still-there')).toContain('etc-still-there');
    });
  });

  describe('ETags and conflicts', () => {
    it('should let the first of two editors win and give the second 409 with both versions', async () => {
      const path = uniquePath('conflict');
      const created = await f.member.client.request('PUT', api.content(path), { content: 'v1\n' });
      expect(created.status).toBe(201);
      const base = (await f.member.client.get(api.text(path))).body.etag;
      expect(base).toBe(sha256Etag('v1\n'));

      const first = await f.member.client.request('PUT', api.content(path), { content: 'alice\n' }, { 'if-match': base });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ path, etag: sha256Etag('alice\n'), size: 6, created: false });
      expect(first.headers.get('etag')).toBe(sha256Etag('alice\n'));

      const second = await f.admin.client.request('PUT', api.content(path), { content: 'bob\n' }, { 'if-match': base });
      expectError(second, 409, 'EDIT_CONFLICT');
      expect(second.body.error.current).toEqual({ etag: sha256Etag('alice\n'), size: 6, encoding: 'utf8', content: 'alice\n' });
      expect(second.body.error.yours).toEqual({ baseEtag: base, etag: sha256Etag('bob\n'), encoding: 'utf8', content: 'bob\n' });
      expect((await f.member.client.get(api.text(path))).body.content).toBe('alice\n');

      // Resolved: the second editor writes again on top of the current version.
      const resolved = await f.admin.client.request('PUT', api.content(path), { content: 'alice\nbob\n' }, { 'if-match': second.body.error.current.etag });
      expect(resolved.status).toBe(200);
    });

    it('should let exactly one of many parallel writers with the same If-Match win', async () => {
      const path = uniquePath('race');
      await f.member.client.request('PUT', api.content(path), { content: 'base' });
      const base = sha256Etag('base');
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => f.member.client.request('PUT', api.content(path), { content: `writer ${i}` }, { 'if-match': base })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    });

    it('should answer 428 to an overwrite without If-Match, 412 to If-Match: * on a missing file, 409 to a stale ETag of a deleted file', async () => {
      const path = uniquePath('precondition');
      await f.member.client.request('PUT', api.content(path), { content: 'one' });
      const blind = await f.member.client.request('PUT', api.content(path), { content: 'two' });
      expectError(blind, 428, 'PRECONDITION_REQUIRED');
      expect(blind.body.error.current).toEqual({ etag: sha256Etag('one'), size: 3 });
      expect((await f.member.client.request('PUT', api.content(path), { content: 'two' }, { 'if-match': '*' })).status).toBe(200);
      expectError(await f.member.client.request('PUT', api.content(uniquePath('missing')), { content: 'x' }, { 'if-match': '*' }), 412, 'PRECONDITION_FAILED');
      expect((await f.member.client.delete(api.entry(path))).status).toBe(204);
      const gone = await f.member.client.request('PUT', api.content(path), { content: 'three' }, { 'if-match': sha256Etag('two') });
      expectError(gone, 409, 'EDIT_CONFLICT');
      expect(gone.body.error.current).toBeNull();
      expectError(await f.member.client.request('PUT', api.content(path), { content: 'x' }, { 'if-match': 'W/"abc"' }), 400, 'VALIDATION_FAILED');
    });

    it('should answer 304 to If-None-Match with the current ETag', async () => {
      const res = await rawRequest(f.viewer.client, 'GET', api.content('README.md'), undefined, { 'if-none-match': sha256Etag('# hello\n') });
      expect(res.status).toBe(304);
    });
  });

  describe('binary files', () => {
    it('should round-trip random bytes with NULs exactly, raw and as base64 JSON', async () => {
      const data = Buffer.concat([Buffer.from([0, 0, 255, 0x80, 0xc3]), randomBytes(40_000), Buffer.from([0])]);
      const sha = createHash('sha256').update(data).digest('hex');
      const path = `bin/${uniquePath('binary')}.bin`;
      const up = await rawRequest(f.member.client, 'POST', api.upload(path), data, { 'content-type': 'application/octet-stream' });
      expect(up.status).toBe(201);
      expect(up.json).toMatchObject({ path, etag: `"${sha}"`, size: data.length, created: true });

      const raw = await rawRequest(f.viewer.client, 'GET', api.content(path), undefined);
      expect(raw.status).toBe(200);
      expect(createHash('sha256').update(raw.bytes).digest('hex')).toBe(sha);
      expect(raw.headers.get('content-type')).toBe('application/octet-stream');
      expect(raw.headers.get('etag')).toBe(`"${sha}"`);
      expect(raw.headers.get('content-security-policy')).toContain('sandbox');

      const json = await f.viewer.client.get(api.text(path));
      expect(json.body.encoding).toBe('base64');
      expect(createHash('sha256').update(Buffer.from(json.body.content, 'base64')).digest('hex')).toBe(sha);

      // Written back as base64 JSON over that version.
      const flipped = Buffer.from(data);
      flipped[10] ^= 0xff;
      const put = await f.member.client.request('PUT', api.content(path), { content: flipped.toString('base64'), encoding: 'base64' }, { 'if-match': `"${sha}"` });
      expect(put.status).toBe(200);
      const back = await rawRequest(f.viewer.client, 'GET', api.content(path), undefined);
      expect(back.bytes.equals(flipped)).toBe(true);
    });

    it('should never serve workspace HTML or SVG as a page of H', async () => {
      await f.member.client.request('PUT', api.content('page.html'), { content: '<script>alert(1)</script>' });
      const res = await rawRequest(f.viewer.client, 'GET', api.content('page.html'), undefined);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await f.member.client.request('PUT', api.content('logo.svg'), { content: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' });
      const svg = await rawRequest(f.viewer.client, 'GET', api.content('logo.svg'), undefined);
      expect(svg.headers.get('content-type')).toMatch(/^text\/plain/);
      await f.member.client.request('PUT', api.content('pixel.png'), { content: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'), encoding: 'base64' });
      expect((await rawRequest(f.viewer.client, 'GET', api.content('pixel.png'), undefined)).headers.get('content-type')).toBe('image/png');
    });
  });

  describe('uploads', () => {
    it('should take a multipart upload', async () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('from a form\n')]), 'form.txt');
      const path = uniquePath('multipart');
      const res = await rawRequest(f.member.client, 'POST', api.upload(path), form);
      expect(res.status).toBe(201);
      expect((await f.member.client.get(api.text(path))).body.content).toBe('from a form\n');
    });

    it('should refuse an upload over FILE_UPLOAD_MAX_BYTES with 413 naming the limit, raw or multipart', async () => {
      const big = randomBytes(UPLOAD_MAX + 1);
      const path = uniquePath('too-big');
      const raw = await rawRequest(f.member.client, 'POST', api.upload(path), big, { 'content-type': 'application/octet-stream' });
      expectError(raw, 413, 'FILE_TOO_LARGE');
      expect(raw.json.error.message).toContain(String(UPLOAD_MAX));
      expect(raw.json.error.message).toContain('FILE_UPLOAD_MAX_BYTES');
      const form = new FormData();
      form.append('file', new Blob([big]), 'big.bin');
      const multi = await rawRequest(f.member.client, 'POST', api.upload(path), form);
      expectError(multi, 413, 'FILE_TOO_LARGE');
      expect(multi.json.error.message).toContain(String(UPLOAD_MAX));
      expectError(await f.member.client.get(api.text(path)), 404, 'FILE_NOT_FOUND');
      // Exactly at the limit is fine.
      const atLimit = await rawRequest(f.member.client, 'POST', api.upload(path), big.subarray(0, UPLOAD_MAX), { 'content-type': 'application/octet-stream' });
      expect(atLimit.status).toBe(201);
    });

    it('should answer malformed multipart uploads with a 4xx, not a 5xx', async () => {
      const path = uniquePath('bad-multipart');
      const noBoundary = await rawRequest(f.member.client, 'POST', api.upload(path), Buffer.from('x'), { 'content-type': 'multipart/form-data' });
      expect(noBoundary.status).toBe(400);
      const wrongField = new FormData();
      wrongField.append('other', new Blob([Buffer.from('x')]), 'x.txt');
      expect((await rawRequest(f.member.client, 'POST', api.upload(path), wrongField)).status).toBe(400);
      const noFile = new FormData();
      noFile.append('note', 'no file here');
      expectError(await rawRequest(f.member.client, 'POST', api.upload(path), noFile), 400, 'VALIDATION_FAILED');
      const twoFiles = new FormData();
      twoFiles.append('file', new Blob([Buffer.from('a')]), 'a.txt');
      twoFiles.append('file', new Blob([Buffer.from('b')]), 'b.txt');
      expect((await rawRequest(f.member.client, 'POST', api.upload(path), twoFiles)).status).toBe(400);
      const truncated = await rawRequest(f.member.client, 'POST', api.upload(path), Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc'), {
        'content-type': 'multipart/form-data; boundary=b',
      });
      expect(truncated.status).toBe(400);
      expectError(await f.member.client.get(api.text(path)), 404, 'FILE_NOT_FOUND');
    });

    it('should keep refusing non-JSON bodies on every other route', async () => {
      const res = await rawRequest(f.member.client, 'PUT', api.content(uniquePath('form')), Buffer.from('content=x'), { 'content-type': 'application/x-www-form-urlencoded' });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('tree, create, move, delete', () => {
    beforeAll(async () => {
      await execInSandbox(stack.sandboxPrefix, f.workspaceId, 'mkdir -p tree/src/deep node_modules/pkg .git && touch tree/src/a.ts tree/src/deep/b.ts tree/z.md node_modules/pkg/index.js .git/HEAD && mkdir -p zz-many && for i in $(seq 1 300); do touch zz-many/f-$i; done');
    });

    it('should list one directory, or everything below it depth-first without node_modules and .git', async () => {
      const top = await f.viewer.client.get(api.tree('tree/src'));
      expect(top.body).toEqual({
        path: 'tree/src',
        entries: [
          { path: 'tree/src/a.ts', name: 'a.ts', type: 'file', size: 0 },
          { path: 'tree/src/deep', name: 'deep', type: 'directory', size: expect.any(Number) },
        ],
        truncated: false,
      });
      const all = await f.viewer.client.get(api.tree('', '&recursive=true&limit=100000'));
      const paths: string[] = all.body.entries.map((e: { path: string }) => e.path);
      expect(paths).toContain('tree/src/deep/b.ts');
      expect(paths).toContain('node_modules');
      expect(paths.some((p) => p.startsWith('node_modules/') || p.startsWith('.git/'))).toBe(false);
      // FILE_TREE_MAX_ENTRIES (200 here) caps any limit.
      expect(all.body.entries).toHaveLength(200);
      expect(all.body.truncated).toBe(true);
      // A skipped directory is listed when asked for by name.
      const nm = await f.viewer.client.get(api.tree('node_modules', '&recursive=true'));
      expect(nm.body.entries.map((e: { path: string }) => e.path)).toEqual(['node_modules/pkg', 'node_modules/pkg/index.js']);
      expectError(await f.viewer.client.get(api.tree('tree/z.md')), 400, 'NOT_DIRECTORY');
      expectError(await f.viewer.client.get(api.tree('no-such-dir')), 404, 'FILE_NOT_FOUND');
    });

    it('should create files and directories, refusing what exists with 409', async () => {
      const c = f.member.client;
      expect((await c.post(api.entry('made/deep/new.ts'), { type: 'file', content: 'x' })).status).toBe(201);
      expectError(await c.post(api.entry('made/deep/new.ts'), { type: 'file' }), 409, 'ALREADY_EXISTS');
      expect((await c.post(api.entry('made/dir'), { type: 'directory' })).body).toEqual({ path: 'made/dir', type: 'directory' });
      expectError(await c.post(api.entry('made/dir'), { type: 'directory' }), 409, 'ALREADY_EXISTS');
      expectError(await c.post(api.entry('made/dir'), { type: 'file' }), 409, 'ALREADY_EXISTS');
      expectError(await c.post(api.entry(''), { type: 'directory' }), 400, 'VALIDATION_FAILED');
    });

    it('should move and rename without overwriting, and delete directories only with recursive=true', async () => {
      const c = f.member.client;
      await c.post(api.entry('mv/a.txt'), { type: 'file', content: 'a' });
      await c.post(api.entry('mv/b.txt'), { type: 'file', content: 'b' });
      expectError(await c.post(api.move(), { from: 'mv/a.txt', to: 'mv/b.txt' }), 409, 'ALREADY_EXISTS');
      expect((await c.post(api.move(), { from: 'mv/a.txt', to: 'mv/sub/c.txt' })).body).toEqual({ path: 'mv/sub/c.txt', from: 'mv/a.txt' });
      expect((await c.get(api.text('mv/sub/c.txt'))).body.content).toBe('a');
      expectError(await c.post(api.move(), { from: 'mv/gone.txt', to: 'mv/x.txt' }), 404, 'FILE_NOT_FOUND');
      expectError(await c.post(api.move(), { from: 'mv', to: 'mv/inside' }), 400, 'VALIDATION_FAILED');
      const dir = await c.delete(api.entry('mv'));
      expectError(dir, 400, 'IS_DIRECTORY');
      expect(dir.body.error.message).toContain('recursive=true');
      expect((await c.delete(api.entry('mv', '&recursive=true'))).status).toBe(204);
      expectError(await c.get(api.tree('mv')), 404, 'FILE_NOT_FOUND');
      expectError(await c.delete(api.entry('mv')), 404, 'FILE_NOT_FOUND');
    });
  });
});
