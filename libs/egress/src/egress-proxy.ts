import { chmodSync, existsSync, mkdirSync, rmSync, unlinkSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import type { EgressRefusal } from './destination-policy';
import { decideDestination, systemLookup, type Decision, type DecisionOptions, type EgressPolicy, type Lookup } from './egress-decision';

/** One line per connection, allowed or not. */
export interface EgressLogEntry {
  workspaceId: string;
  kind: 'connect' | 'http';
  host: string;
  port: number;
  allowed: boolean;
  reason: EgressRefusal | null;
  /** The address the name resolved to (the one connected to, when allowed). */
  address?: string;
  /** Bytes from the destination to the sandbox, and from the sandbox to the destination. */
  bytesIn: number;
  bytesOut: number;
  durationMs: number;
}

export interface EgressProxyOptions {
  /** Host dir with one sub-dir per workspace holding `egress.sock`; each sub-dir is mounted into its sandbox. */
  socketDir: string;
  /** The workspace's current policy; null = unknown workspace (refused). */
  policy: (workspaceId: string) => Promise<EgressPolicy | null>;
  onLog?: (entry: EgressLogEntry) => void;
  allowedPorts?: readonly number[] | 'any';
  internalHosts?: readonly { host: string; port?: number }[];
  allowLoopbackForTests?: boolean;
  /** Injected name resolution (tests map names to private addresses without sending any packet). */
  lookup?: Lookup;
  connectTimeoutMs?: number;
  /** A tunnel or request without traffic in either direction for this long is closed. */
  idleTimeoutMs?: number;
  maxConnectionsPerWorkspace?: number;
}

export const EGRESS_SOCKET_NAME = 'egress.sock';

const STATUS: Partial<Record<EgressRefusal, number>> = {
  BAD_REQUEST: 400,
  TOO_MANY_CONNECTIONS: 429,
  DNS_FAILED: 502,
  CONNECT_FAILED: 502,
  TIMEOUT: 504,
};
const HOP_BY_HOP = ['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade'];

/**
 * The only way out for network-enabled sandboxes: an HTTP forward proxy (http:// URLs) and CONNECT
 * tunnels (https and anything else over TLS), one unix socket per workspace, deny by default.
 * See libs/egress/README.md.
 */
export class EgressProxy {
  private readonly servers = new Map<string, http.Server>();
  private tcp: http.Server | null = null;
  private readonly active = new Map<string, number>();
  private readonly decision: DecisionOptions;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly maxConnections: number;

  constructor(private readonly opts: EgressProxyOptions) {
    this.decision = {
      allowedPorts: opts.allowedPorts ?? [80, 443],
      internalHosts: opts.internalHosts ?? [],
      allowLoopbackForTests: opts.allowLoopbackForTests ?? false,
      lookup: opts.lookup ?? systemLookup,
    };
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 120_000;
    this.maxConnections = opts.maxConnectionsPerWorkspace ?? 32;
  }

  /** The host dir to bind-mount (read-only) at EGRESS_SANDBOX_DIR in the workspace's sandbox. */
  hostDir(workspaceId: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(workspaceId) || workspaceId.startsWith('.')) throw new Error(`bad workspace id "${workspaceId}"`);
    return path.join(this.opts.socketDir, workspaceId);
  }

  socketPath(workspaceId: string): string {
    return path.join(this.hostDir(workspaceId), EGRESS_SOCKET_NAME);
  }

  /**
   * Listens on the workspace's socket (idempotent). The sandbox mounts the directory, not the
   * socket file, so a proxy restarted later (new socket inode) is seen without re-creating it.
   */
  async serve(workspaceId: string): Promise<void> {
    if (this.servers.has(workspaceId)) return;
    const dir = this.hostDir(workspaceId);
    mkdirSync(this.opts.socketDir, { recursive: true, mode: 0o711 });
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const sock = this.socketPath(workspaceId);
    // sun_path holds 108 bytes: a deeper dir would fail with a bare EINVAL.
    if (Buffer.byteLength(sock) > 107) throw new Error(`egress socket path too long (${sock}); set EGRESS_SOCKET_DIR to a shorter directory`);
    try {
      unlinkSync(sock); // a previous process's socket: this one takes over
    } catch {
      // none there
    }
    const server = http.createServer({ requestTimeout: 0 });
    server.on('request', (req, res) => void this.forward(workspaceId, req, res));
    server.on('connect', (req, socket, head) => void this.tunnel(workspaceId, req, socket, head));
    server.on('clientError', (_e, socket) => socket.destroy());
    // Raw sockets (idle keep-alive ones included) are bounded as well as requests in progress.
    server.maxConnections = this.maxConnections * 2;
    this.servers.set(workspaceId, server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(sock, () => resolve());
    });
    // The sandbox user is not the proxy's user; the directory is only mounted into this workspace.
    chmodSync(sock, 0o666);
  }

  /**
   * One TCP listener for sandboxes that reach the proxy over a pod network (the Kubernetes driver,
   * whose NetworkPolicy admits only network-enabled sandbox pods): the workspace of a connection
   * is whoever `identify` says holds its source address (the pod with that IP); unknown addresses
   * are refused (NETWORK_OFF). The workspace's policy then decides as for its unix socket.
   */
  async serveTcp(port: number, host: string, identify: (address: string) => Promise<string | null>): Promise<net.AddressInfo> {
    if (this.tcp) throw new Error('the egress proxy already listens on TCP');
    const server = http.createServer({ requestTimeout: 0 });
    const who = (socket: net.Socket) => identify((socket.remoteAddress ?? '').replace(/^::ffff:/, '')).catch(() => null);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      void who(req.socket).then((id) => {
        if (id) return this.forward(id, req, res);
        res.writeHead(403, { 'Content-Type': 'text/plain', 'X-H-Egress-Refused': 'NETWORK_OFF' }).end('H egress proxy: this address is no sandbox with network access.\n');
      });
    });
    server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined);
      void who(req.socket).then((id) => {
        if (id) return this.tunnel(id, req, socket, head);
        writeRawRefusal(socket, 403, 'NETWORK_OFF', 'H egress proxy: this address is no sandbox with network access.\n');
      });
    });
    server.on('clientError', (_e, socket) => socket.destroy());
    this.tcp = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server.address() as net.AddressInfo;
  }

  async stop(workspaceId: string): Promise<void> {
    const server = this.servers.get(workspaceId);
    if (!server) return;
    this.servers.delete(workspaceId);
    await new Promise<void>((r) => server.close(() => r()));
    server.closeAllConnections();
  }

  /** Stops serving and removes the workspace's socket dir (workspace deleted). */
  async remove(workspaceId: string): Promise<void> {
    await this.stop(workspaceId);
    rmSync(this.hostDir(workspaceId), { recursive: true, force: true });
  }

  /** Listens again on every served socket whose file is gone (removed by another process). */
  async heal(): Promise<void> {
    for (const id of [...this.servers.keys()]) {
      if (existsSync(this.socketPath(id))) continue;
      await this.stop(id);
      await this.serve(id);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((id) => this.stop(id)));
    const tcp = this.tcp;
    this.tcp = null;
    if (tcp) {
      await new Promise<void>((r) => tcp.close(() => r()));
      tcp.closeAllConnections();
    }
  }

  // --- internals ---------------------------------------------------------------------------------

  private async decide(workspaceId: string, host: string, port: number): Promise<Decision> {
    if ((this.active.get(workspaceId) ?? 0) >= this.maxConnections) {
      return { allowed: false, host, port, reason: 'TOO_MANY_CONNECTIONS', detail: `at most ${this.maxConnections} connections at once per workspace` };
    }
    const policy = await this.opts.policy(workspaceId).catch(() => null);
    return decideDestination(policy, host, port, this.decision);
  }

  private acquire(workspaceId: string): () => void {
    this.active.set(workspaceId, (this.active.get(workspaceId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.active.get(workspaceId) ?? 1) - 1;
      if (n > 0) this.active.set(workspaceId, n);
      else this.active.delete(workspaceId);
    };
  }

  private log(workspaceId: string, kind: 'connect' | 'http', d: Decision, started: number, bytesIn = 0, bytesOut = 0, failure?: EgressRefusal): void {
    this.opts.onLog?.({
      workspaceId,
      kind,
      host: d.host,
      port: d.port,
      allowed: d.allowed && !failure,
      reason: failure ?? (d.allowed ? null : d.reason),
      address: d.address,
      bytesIn,
      bytesOut,
      durationMs: Date.now() - started,
    });
  }

  private refusalText(d: { host: string; port: number; reason: EgressRefusal; detail: string }): string {
    return `H egress proxy refused ${d.host}:${d.port} (${d.reason}): ${d.detail}.\n`;
  }

  private async tunnel(workspaceId: string, req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const started = Date.now();
    client.on('error', () => undefined);
    const { host, port } = splitAuthority(req.url ?? '');
    const d = await this.decide(workspaceId, host, port);
    if (!d.allowed) {
      this.log(workspaceId, 'connect', d, started);
      return void writeRawRefusal(client, STATUS[d.reason] ?? 403, d.reason, this.refusalText(d));
    }
    const release = this.acquire(workspaceId);
    const upstream = net.connect({ host: d.address, port: d.port, family: d.family });
    let established = false;
    let failure: EgressRefusal | undefined;
    const connectTimer = setTimeout(() => {
      failure = 'TIMEOUT';
      upstream.destroy();
    }, this.connectTimeoutMs);
    upstream.once('connect', () => {
      established = true;
      clearTimeout(connectTimer);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      // The client side of a CONNECT is the server's net.Socket.
      for (const s of [upstream, client as net.Socket]) {
        s.setTimeout(this.idleTimeoutMs, () => {
          upstream.destroy();
          client.destroy();
        });
      }
    });
    upstream.on('error', () => {
      if (!established) failure ??= 'CONNECT_FAILED';
    });
    upstream.once('close', () => {
      clearTimeout(connectTimer);
      release();
      if (!established && failure && !client.destroyed) {
        writeRawRefusal(client, STATUS[failure] ?? 502, failure, this.refusalText({ ...d, reason: failure, detail: 'the destination did not answer' }));
      } else client.destroy();
      this.log(workspaceId, 'connect', d, started, upstream.bytesRead, upstream.bytesWritten, established ? undefined : (failure ?? 'CONNECT_FAILED'));
    });
    client.once('close', () => upstream.destroy());
  }

  private async forward(workspaceId: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    let url: URL | null = null;
    try {
      url = new URL(req.url ?? '');
    } catch {
      // not an absolute URL
    }
    if (!url || url.protocol !== 'http:') {
      const d: Decision = { allowed: false, host: url?.hostname ?? '', port: 0, reason: 'BAD_REQUEST', detail: 'send absolute http:// URLs; https:// goes through CONNECT' };
      this.log(workspaceId, 'http', d, started);
      return void res.writeHead(400, { 'content-type': 'text/plain', 'x-h-egress-refused': d.reason }).end(this.refusalText(d));
    }
    const d = await this.decide(workspaceId, url.hostname, url.port ? Number(url.port) : 80);
    if (!d.allowed) {
      this.log(workspaceId, 'http', d, started);
      return void res.writeHead(STATUS[d.reason] ?? 403, { 'content-type': 'text/plain', 'x-h-egress-refused': d.reason }).end(this.refusalText(d));
    }
    const release = this.acquire(workspaceId);
    const headers = withoutHopByHop(req.headers);
    headers.host = url.host;
    let bytesOut = 0;
    let bytesIn = 0;
    let failure: EgressRefusal | undefined;
    const upstreamReq = http.request({
      host: d.address,
      family: d.family,
      port: d.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      agent: false,
    });
    const connectTimer = setTimeout(() => {
      failure = 'TIMEOUT';
      upstreamReq.destroy();
    }, this.connectTimeoutMs);
    upstreamReq.once('socket', (s) => s.once('connect', () => clearTimeout(connectTimer)));
    upstreamReq.setTimeout(this.idleTimeoutMs, () => {
      failure ??= 'TIMEOUT';
      upstreamReq.destroy();
    });
    req.on('data', (b: Buffer) => (bytesOut += b.length));
    req.pipe(upstreamReq);
    upstreamReq.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, withoutHopByHop(up.headers));
      up.on('data', (b: Buffer) => (bytesIn += b.length));
      up.pipe(res);
    });
    upstreamReq.on('error', () => {
      failure ??= 'CONNECT_FAILED';
      if (!res.headersSent) {
        res.writeHead(STATUS[failure] ?? 502, { 'content-type': 'text/plain', 'x-h-egress-refused': failure });
        res.end(this.refusalText({ ...d, reason: failure, detail: 'the destination did not answer' }));
      } else res.destroy();
    });
    res.once('close', () => {
      clearTimeout(connectTimer);
      upstreamReq.destroy();
      release();
      this.log(workspaceId, 'http', d, started, bytesIn, bytesOut, failure);
    });
  }
}

/** `host:port` or `[v6]:port` of a CONNECT request. */
function splitAuthority(authority: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(authority) ?? /^([^:]+):(\d+)$/.exec(authority);
  return m ? { host: m[1], port: Number(m[2]) } : { host: authority, port: 0 };
}

function withoutHopByHop(h: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = { ...h };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

function writeRawRefusal(socket: Duplex, status: number, reason: EgressRefusal, text: string): void {
  const body = Buffer.from(text);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Refused'}\r\nX-H-Egress-Refused: ${reason}\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${text}`,
  );
}
