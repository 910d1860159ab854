import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { dirname } from 'node:path';
import type { Duplex } from 'node:stream';
import { decide, LABEL_SANDBOX_IMAGE, needsBody, ownedLabels, type Decision } from './docker-api-policy';

export interface DockerProxyOptions {
  /** Unix socket the proxy listens on (the worker's DOCKER_HOST). */
  listen: string;
  /** The engine's socket. */
  upstream: string;
  /** The installation's sandbox name prefix (SANDBOX_NAME_PREFIX). */
  prefix: string;
  /** Host directories sandboxes may bind-mount from (default none). */
  bindDirs?: string[];
  /** uid/gid to own the listening socket (mode 0660); default: the proxy's own. */
  owner?: { uid: number; gid: number };
  /** Largest checked JSON body (default 1 MiB; the driver's are a few KB). */
  maxBodyBytes?: number;
  /** One entry per refused request (allowed ones are the engine's business). */
  onDeny?: (entry: { method: string; url: string; status: number; reason: string }) => void;
}

export interface DockerProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

type Verdict = { ok: true; path: string } | { ok: false; status: number; reason: string };

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyError(413, `body larger than ${limit} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * H's Docker socket proxy: the worker's only way to the engine in a compose deployment. Forwards
 * the calls the sandbox driver makes (docker-api-policy.ts) on H's own labelled, prefixed
 * containers, volumes and execs, and answers 403 to everything else: another container, pulling
 * or building images, a privileged or host-mounting container, a volume bound to a host path.
 */
export async function startDockerProxy(opts: DockerProxyOptions): Promise<DockerProxy> {
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;

  /** A small JSON request to the engine (ownership checks). */
  const upstreamJson = (path: string): Promise<{ status: number; body: any }> =>
    new Promise((resolve, reject) => {
      const r = http.request({ socketPath: opts.upstream, method: 'GET', path, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = null;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            body = { message: text };
          }
          resolve({ status: res.statusCode ?? 502, body });
        });
      });
      r.on('error', reject);
      r.end();
    });

  const notOwned = (what: string): Verdict => ({ ok: false, status: 403, reason: `${what} is not one of this H installation's` });
  const passThrough = (status: number, body: any): Verdict => ({ ok: false, status, reason: String(body?.message ?? `engine answered ${status}`) });

  async function containerVerdict(ref: string, build: (id: string) => string): Promise<Verdict> {
    const { status, body } = await upstreamJson(`/containers/${encodeURIComponent(ref)}/json`);
    if (status !== 200) return passThrough(status, body);
    const name = String(body?.Name ?? '').replace(/^\//, '');
    if (!ownedLabels(body?.Config?.Labels, opts.prefix) || !name.startsWith(opts.prefix)) return notOwned(`container ${ref}`);
    return { ok: true, path: build(String(body.Id)) };
  }

  async function verdictFor(d: Decision): Promise<Verdict> {
    switch (d.kind) {
      case 'deny':
        return { ok: false, status: 403, reason: d.reason };
      case 'forward':
        return { ok: true, path: d.path };
      case 'container':
        return containerVerdict(d.ref, d.build);
      case 'exec': {
        const { status, body } = await upstreamJson(`/exec/${encodeURIComponent(d.id)}/json`);
        if (status !== 200) return passThrough(status, body);
        const owner = await containerVerdict(String(body?.ContainerID ?? ''), () => d.path);
        return owner.ok ? owner : notOwned(`exec ${d.id}`);
      }
      case 'volume': {
        const { status, body } = await upstreamJson(`/volumes/${encodeURIComponent(d.name)}`);
        if (status !== 200) return passThrough(status, body);
        const owned = ownedLabels(body?.Labels, opts.prefix) && String(body?.Name ?? '').startsWith(opts.prefix);
        return owned ? { ok: true, path: d.path } : notOwned(`volume ${d.name}`);
      }
      case 'image': {
        const { status, body } = await upstreamJson(`/images/${encodeURIComponent(d.image)}/json`);
        if (status !== 200) return passThrough(status, body);
        return body?.Config?.Labels?.[LABEL_SANDBOX_IMAGE] === '1'
          ? { ok: true, path: d.path }
          : { ok: false, status: 403, reason: `image ${d.image} is not a sandbox image (label ${LABEL_SANDBOX_IMAGE}=1)` };
      }
    }
  }

  const refuse = (method: string, url: string, status: number, reason: string): string => {
    if (status === 403 || status === 400 || status === 413) opts.onDeny?.({ method, url, status, reason });
    // Docker's own error shape, so dockerode reports the reason.
    return JSON.stringify({ message: status === 403 ? `h docker proxy: ${reason}` : reason });
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    let body: string | undefined;
    let parsed: unknown;
    if (needsBody(method, url)) {
      const raw = (await readBody(req, maxBody)).toString('utf8');
      try {
        parsed = raw ? JSON.parse(raw) : {};
      } catch {
        throw new BodyError(400, 'body is not JSON');
      }
      // Forward what was checked: one serialization, no duplicate keys the engine might read differently.
      body = JSON.stringify(parsed);
    }
    const verdict = await verdictFor(decide({ method, url, body: parsed }, opts.prefix, opts.bindDirs));
    if (!verdict.ok) {
      res.writeHead(verdict.status, { 'Content-Type': 'application/json' }).end(refuse(method, url, verdict.status, verdict.reason));
      return;
    }
    const headers = { ...req.headers };
    if (body !== undefined) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const up = http.request({ socketPath: opts.upstream, method, path: verdict.path, headers, agent: false }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: `engine: ${e.message}` }));
      else res.destroy();
    });
    res.on('close', () => up.destroy());
    if (body !== undefined) up.end(body);
    else req.pipe(up);
  }

  /** Hijacked streams (`exec start` with Upgrade: tcp): checked, then spliced to the engine raw. */
  async function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const d = /^(\/v\d+(\.\d+)?)?\/exec\/[^/]+\/start(\?|$)/.test(url) ? decide({ method, url }, opts.prefix) : ({ kind: 'deny', reason: 'upgrade only for exec start' } as const);
    const verdict = await verdictFor(d);
    if (!verdict.ok) {
      const text = refuse(method, url, verdict.status, verdict.reason);
      socket.end(`HTTP/1.1 ${verdict.status} ${http.STATUS_CODES[verdict.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
      return;
    }
    const up = net.connect(opts.upstream);
    const drop = () => {
      up.destroy();
      socket.destroy();
    };
    up.on('error', drop);
    socket.on('error', drop);
    up.once('connect', () => {
      const lines = [`${method} ${verdict.path} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) up.write(head);
      socket.pipe(up);
      up.pipe(socket);
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      const status = e instanceof BodyError ? e.status : 502;
      if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json' }).end(refuse(req.method ?? 'GET', req.url ?? '/', status, e.message));
      else res.destroy();
    });
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(req, socket, head).catch(() => socket.destroy());
  });

  mkdirSync(dirname(opts.listen), { recursive: true });
  // A socket file left by a killed proxy would make listen fail with EADDRINUSE.
  if (existsSync(opts.listen) && lstatSync(opts.listen).isSocket()) unlinkSync(opts.listen);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.listen, () => resolve());
  });
  chmodSync(opts.listen, 0o660);
  if (opts.owner) chownSync(opts.listen, opts.owner.uid, opts.owner.gid);

  return {
    socketPath: opts.listen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
