import { spawn, execFile } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  /** A bare repository without commits (what a host makes for a new project). */
  createEmptyRepo(repo: string, branch?: string): Promise<void>;
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
/** `unref`: the server does not keep the process alive (a helper shared by a whole test file). */
export async function startGitServer(options: { token?: string; unref?: boolean } = {}): Promise<GitServer> {
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
  if (options.unref) server.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const bare = (repo: string) => join(root, `${repo}.git`);
  const git = async (cwd: string, args: string[]) => (await run('git', args, { cwd, env: GIT_ENV })).stdout;

  const server_: GitServer = {
    url: (repo) => `http://127.0.0.1:${port}/${repo}.git`,
    token,
    requests,
    async createRepo(repo, files, branch = 'main') {
      await server_.createEmptyRepo(repo, branch);
      await server_.commit(repo, files, 'initial commit', branch);
    },
    async createEmptyRepo(repo, branch = 'main') {
      await mkdir(bare(repo), { recursive: true });
      await git(bare(repo), ['init', '--bare', '--quiet', `--initial-branch=${branch}`]);
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

export interface SshGitServer {
  /** `ssh://<user>@127.0.0.1:<port>/…/<repo>.git` */
  url(repo: string): string;
  /** The private key the server accepts (OpenSSH, no passphrase): a deploy key. */
  readonly privateKey: string;
  /** Another valid key the server does not know. */
  readonly otherKey: string;
  createRepo(repo: string, files: Record<string, string>, branch?: string): Promise<void>;
  git(repo: string, args: string[]): Promise<string>;
  close(): Promise<void>;
}

/** Why SSH tests cannot run here, or null (they need Debian's openssh-server: /usr/sbin/sshd). */
export async function sshUnavailableReason(): Promise<string | null> {
  try {
    await run('/usr/sbin/sshd', ['-V']).catch((e: { stderr?: string }) => {
      if (!String(e.stderr ?? '').includes('OpenSSH')) throw e;
    });
    return null;
  } catch {
    return '/usr/sbin/sshd is not installed (apt-get install -y openssh-server)';
  }
}

/**
 * A git server over SSH on loopback: its own sshd (own config, host key and authorized_keys, no
 * passwords) running as the current user, serving bare repositories from a temp dir.
 */
export async function startSshGitServer(): Promise<SshGitServer> {
  const root = await mkdtemp(join(tmpdir(), 'h-ssh-git-'));
  const keygen = (file: string) => run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'h-test', '-f', file]);
  await Promise.all([keygen(join(root, 'host_key')), keygen(join(root, 'client_key')), keygen(join(root, 'other_key'))]);
  await copyFile(join(root, 'client_key.pub'), join(root, 'authorized_keys'));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      probe.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
  const config = join(root, 'sshd_config');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(root, 'host_key')}`,
      `AuthorizedKeysFile ${join(root, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      `PidFile ${join(root, 'sshd.pid')}`,
      '',
    ].join('\n'),
  );
  await mkdir('/run/sshd', { recursive: true }).catch(() => undefined);
  const sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  sshd.stderr.on('data', (c: Buffer) => (log += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 10_000;
    const check = () => {
      if (/Server listening/.test(log)) return resolve();
      if (sshd.exitCode !== null || Date.now() > deadline) return reject(new Error(`sshd did not start: ${log}`));
      setTimeout(check, 50);
    };
    check();
  });
  const user = (await run('id', ['-un'])).stdout.trim();
  const bare = (repo: string) => join(root, 'repos', `${repo}.git`);
  const git = async (cwd: string, args: string[]) => (await run('git', args, { cwd, env: GIT_ENV })).stdout;
  const privateKey = await readFile(join(root, 'client_key'), 'utf8');
  const otherKey = await readFile(join(root, 'other_key'), 'utf8');
  return {
    url: (repo) => `ssh://${user}@127.0.0.1:${port}${bare(repo)}`,
    privateKey,
    otherKey,
    async createRepo(repo, files, branch = 'main') {
      await mkdir(bare(repo), { recursive: true });
      await git(bare(repo), ['init', '--bare', '--quiet', `--initial-branch=${branch}`]);
      const work = await mkdtemp(join(tmpdir(), 'h-ssh-work-'));
      try {
        await git(work, ['init', '--quiet', `--initial-branch=${branch}`]);
        for (const [path, content] of Object.entries(files)) {
          await mkdir(dirname(join(work, path)), { recursive: true });
          await writeFile(join(work, path), content);
        }
        await git(work, ['add', '-A']);
        await git(work, ['commit', '--quiet', '-m', 'initial commit']);
        await git(work, ['push', '--quiet', bare(repo), `HEAD:refs/heads/${branch}`]);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    git: (repo, args) => git(bare(repo), args),
    async close() {
      sshd.kill('SIGTERM');
      await new Promise((resolve) => (sshd.exitCode !== null ? resolve(null) : sshd.once('exit', resolve)));
      await rm(root, { recursive: true, force: true });
    },
  };
}
