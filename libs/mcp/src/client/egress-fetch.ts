import * as http from 'node:http';
import * as net from 'node:net';
import { Readable, Transform } from 'node:stream';
import * as tls from 'node:tls';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface EgressFetchOptions {
  /** The workspace's egress proxy socket (EgressProxy.socketPath): its policy decides, not this code. */
  socketPath: string;
  connectTimeoutMs: number;
  /** Largest response body accepted; beyond it the response stream fails. */
  maxBodyBytes: number;
}

/** A refusal or failure of the egress proxy, with its `X-H-Egress-Refused` code when it gave one. */
export class EgressRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EgressRefusedError';
  }
}

const HEAD_MAX_BYTES = 16 * 1024;

/**
 * A fetch for the MCP SDK's Streamable HTTP transport that reaches the server only through the
 * workspace's egress proxy: every request opens a `CONNECT host:port` tunnel over the proxy's unix
 * socket (TLS inside it for https), so the workspace's network switch and allowlist apply, and
 * loopback, private and H-internal addresses are refused by the same code that guards sandboxes.
 * The worker holds the server's headers (credentials); they go into the tunnel, never into the sandbox.
 */
export function egressFetch(options: EgressFetchOptions): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported URL scheme ${url.protocol}`);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const signal = init.signal ?? undefined;
    const tunnel = await openTunnel(options, url.hostname, port, signal);
    const socket = url.protocol === 'https:' ? await startTls(tunnel, url.hostname, options.connectTimeoutMs) : tunnel;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(init.body as ArrayBuffer);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const req = http.request({
        method: init.method ?? 'GET',
        host: url.hostname,
        port,
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, ...headers },
        agent: false,
        createConnection: () => socket,
      });
      const abort = (): void => {
        req.destroy(new DOMException('The operation was aborted.', 'AbortError'));
      };
      signal?.addEventListener('abort', abort, { once: true });
      req.on('error', (err) => {
        socket.destroy();
        reject(err);
      });
      req.on('response', (res) => {
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(key, v);
        }
        res.on('close', () => {
          signal?.removeEventListener('abort', abort);
          socket.destroy();
        });
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        const bounded = res.pipe(limitBytes(options.maxBodyBytes));
        res.on('error', (err) => bounded.destroy(err));
        const stream = empty ? null : (Readable.toWeb(bounded) as unknown as ReadableStream<Uint8Array>);
        if (empty) res.resume();
        resolve(new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders }));
      });
      req.end(body);
    });
  };
}

function limitBytes(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) return done(new Error(`the MCP server's response is larger than ${max} bytes (MCP_MAX_MESSAGE_BYTES)`));
      done(null, chunk);
    },
  });
}

/** `CONNECT host:port` over the proxy's socket; resolves with the tunnel once the proxy said 200. */
function openTunnel(options: EgressFetchOptions, host: string, port: number, signal: AbortSignal | undefined): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options.socketPath);
    let head = Buffer.alloc(0);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(err);
    };
    const onAbort = (): void => fail(new DOMException('The operation was aborted.', 'AbortError'));
    const timer = setTimeout(() => fail(new EgressRefusedError('TIMEOUT', `no tunnel to ${host}:${port} within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (err) => fail(new EgressRefusedError('PROXY_UNAVAILABLE', `the workspace's egress proxy is not reachable: ${err.message}`)));
    socket.on('connect', () => socket.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`));
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > HEAD_MAX_BYTES) fail(new EgressRefusedError('BAD_RESPONSE', 'the egress proxy sent an oversized answer'));
        return;
      }
      socket.off('data', onData);
      const text = head.subarray(0, end).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      if (status !== 200) {
        const code = /\r\nx-h-egress-refused:\s*([A-Z_]+)/i.exec(text)?.[1] ?? 'REFUSED';
        const why = head.subarray(end + 4).toString('utf8').trim().slice(0, 300);
        fail(new EgressRefusedError(code, `the egress proxy refused ${host}:${port} (${code})${why ? `: ${why}` : ''}`));
        return;
      }
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const rest = head.subarray(end + 4);
      if (rest.length) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

function startTls(tunnel: net.Socket, servername: string, timeoutMs: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ socket: tunnel, servername: net.isIP(servername) ? undefined : servername, ALPNProtocols: ['http/1.1'] });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`TLS handshake with ${servername} took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
