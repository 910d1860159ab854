import { spawn, execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What the server saw: every request with whether it carried the right credentials. */
export interface GitServerRequest {
  method: string;
  path: string;
  authorized: boolean;
  /** The raw Authorization header, to check what a client sent. */
  authorization: string | null;
}

export interface GitServer {
  /** The clone URL of `repo` (`http://127.0.0.1:<port>/<repo>.git`), no credentials in it. */
  url(repo: string): string;
  readonly token: string;
  readonly requests: GitServerRequest[];
  /** A bare repository `repo` with one commit on `branch` holding `files`. */
  createRepo(repo: string, files: Record<string, string>, branch?: string): Promise<void>;
  /** Another commit on `branch`, made as a second developer would (straight into the bare repo). */
  commit(repo: string, files: Record<string, string>, message: string, branch?: string): Promise<string>;
  /** `git <args>` in the bare repository (e.g. `log --format=%s main`). */
  git(repo: string, args: string[]): Promise<string>;
  close(): Promise<void>;
}

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Remote Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.org',
  GIT_COMMITTER_NAME: 'Remote Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.org',
};

/**
 * A git server on loopback for tests: smart HTTP through `git http-backend` (CGI) behind a Node
 * http server. Every request needs Basic auth whose password is `token` (any user name): 401 with
 * a Basic challenge otherwise, as hosted git servers answer. Push is on (http-backend allows
 * receive-pack once REMOTE_USER is set).
 */
export async function startGitServer(options: { token?: string } = {}): Promise<GitServer> {
  const root = await mkdtemp(join(tmpdir(), 'h-git-server-'));
  const token = options.token ?? `tok-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const requests: GitServerRequest[] = [];

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const auth = req.headers.authorization ?? null;
    const password = auth?.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':').slice(1).join(':') : null;
    const authorized = password === token;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, authorized, authorization: auth });
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('Authentication required\n');
      req.resume();
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
      if (end < 0) return;
      const sep = head.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      headersDone = true;
      res.write(head.subarray(end + sep));
    });
    cgi.stdout.on('end', () => res.end());
    cgi.on('error', () => res.destroy());
  };

  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const bare = (repo: string) => join(root, `${repo}.git`);
  const git = async (cwd: string, args: string[]) => (await run('git', args, { cwd, env: GIT_ENV })).stdout;

  const server_: GitServer = {
    url: (repo) => `http://127.0.0.1:${port}/${repo}.git`,
    token,
    requests,
    async createRepo(repo, files, branch = 'main') {
      await mkdir(bare(repo), { recursive: true });
      await git(bare(repo), ['init', '--bare', '--quiet', `--initial-branch=${branch}`]);
      await server_.commit(repo, files, 'initial commit', branch);
    },
    async commit(repo, files, message, branch = 'main') {
      const work = await mkdtemp(join(tmpdir(), 'h-git-work-'));
      try {
        await git(work, ['init', '--quiet', `--initial-branch=${branch}`]);
        const hasBranch = (await git(bare(repo), ['for-each-ref', `refs/heads/${branch}`])).trim() !== '';
        if (hasBranch) {
          await git(work, ['fetch', '--quiet', bare(repo), `refs/heads/${branch}`]);
          await git(work, ['reset', '--quiet', '--hard', 'FETCH_HEAD']);
        }
        for (const [path, content] of Object.entries(files)) {
          await mkdir(dirname(join(work, path)), { recursive: true });
          await writeFile(join(work, path), content);
        }
        await git(work, ['add', '-A']);
        await git(work, ['commit', '--quiet', '-m', message]);
        await git(work, ['push', '--quiet', bare(repo), `HEAD:refs/heads/${branch}`]);
        return (await git(work, ['rev-parse', 'HEAD'])).trim();
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    git: (repo, args) => git(bare(repo), args),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
  return server_;
}
