import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import { failSpan, metrics, SpanKind, startSpan } from '@h/telemetry';
import { MessagesUsageParser, type MessagesUsage } from './messages-usage';

/** One run's use of the gateway: whose key, what is allowed, where its usage goes. */
export interface GatewayRun {
  runId: string;
  /** The team's Anthropic key, decrypted on the host for this run: sent only to the upstream. */
  apiKey: string;
  /** Asked before each request is forwarded: null lets it through, a text refuses it (a team limit). */
  admit(): Promise<string | null> | string | null;
  /** Called once per answered request with what the upstream reported. */
  onUsage(usage: MessagesUsage, model: string): Promise<void> | void;
}

export interface GatewayLease {
  /** The per-run secret Claude Code sends as its API key (ANTHROPIC_API_KEY inside the sandbox). */
  readonly secret: string;
  /** The socket's file name in the gateway dir (the sandbox sees the dir at MODEL_GATEWAY_SANDBOX_DIR). */
  readonly socketName: string;
  /** Stops accepting requests, ends the ones in flight and removes the socket. */
  close(): Promise<void>;
}

export interface ModelGatewayOptions {
  /** Host dir of the run sockets (mounted read-only into every sandbox). */
  socketDir: string;
  /** The Anthropic(-compatible) base URL, e.g. https://api.anthropic.com (ANTHROPIC_BASE_URL). */
  upstream: string;
  /** Largest request body forwarded (default 32 MiB; Claude Code sends images as base64). */
  maxBodyBytes?: number;
  /** An upstream answer that sends nothing for this long is cut (default 10 min, as Anthropic's own streaming limit). */
  upstreamIdleMs?: number;
  onError?: (err: unknown, runId: string) => void;
}

// Only the Messages API passes: nothing else of the upstream (files, batches, admin) is reachable.
const ALLOWED_PATHS = new Set(['/v1/messages', '/v1/messages/count_tokens']);
// Request headers forwarded as they come; everything else (authorization, the secret) is dropped.
const FORWARD_REQUEST = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'user-agent', 'x-stainless-retry-count', 'x-stainless-timeout'];
const FORWARD_RESPONSE = ['content-type', 'request-id', 'retry-after', 'anthropic-organization-id', 'x-should-retry'];
const DEFAULT_MAX_BODY = 32 * 1024 * 1024;

/**
 * H's model gateway for engines that call their model from inside a sandbox (Claude Code). It runs
 * in the worker, next to the run it serves (see README: why there). Each run gets its own unix
 * socket in the gateway dir and its own random secret; the sandbox reaches the socket through a
 * loopback forwarder (`--network none`). A request passes only with that run's secret, only to the
 * Messages API, only while `admit` says so; the gateway replaces the secret with the team's key
 * (which never enters the sandbox), forwards to the upstream, streams the answer back and reports
 * the usage it saw (input, output, cache creation, cache read) for the run.
 */
export class ModelGateway {
  private readonly upstream: string;

  constructor(private readonly opts: ModelGatewayOptions) {
    this.upstream = opts.upstream.replace(/\/+$/, '');
  }

  get socketDir(): string {
    return this.opts.socketDir;
  }

  async open(run: GatewayRun): Promise<GatewayLease> {
    const secret = `h-run-${randomBytes(24).toString('base64url')}`;
    const socketName = `${run.runId}.sock`;
    const socketPath = path.join(this.opts.socketDir, socketName);
    // A unix socket path has 108 bytes on Linux; a longer one would fail with an obscure error.
    if (Buffer.byteLength(socketPath) > 107) throw new Error(`the gateway socket path ${socketPath} is longer than 107 bytes: set MODEL_GATEWAY_SOCKET_DIR to a shorter directory`);
    mkdirSync(this.opts.socketDir, { recursive: true, mode: 0o755 });
    rmSync(socketPath, { force: true });
    const inflight = new Set<AbortController>();
    const sockets = new Set<Socket>();
    const server: Server = createServer((req, res) => {
      const abort = new AbortController();
      inflight.add(abort);
      res.once('close', () => {
        inflight.delete(abort);
        abort.abort();
      });
      this.handle(run, secret, req, res, abort.signal).catch((err) => {
        this.opts.onError?.(err, run.runId);
        if (!res.headersSent) sendError(res, 502, 'api_error', 'H model gateway: the upstream request failed.');
        else res.destroy();
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    // The sandbox user (uid 1000) connects; what protects the socket is the per-run secret.
    chmodSync(socketPath, 0o666);
    let closed: Promise<void> | null = null;
    return {
      secret,
      socketName,
      close: () =>
        (closed ??= new Promise<void>((resolve) => {
          for (const a of inflight) a.abort();
          for (const s of sockets) s.destroy();
          server.close(() => {
            rmSync(socketPath, { force: true });
            resolve();
          });
        })),
    };
  }

  private async handle(run: GatewayRun, secret: string, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (!authorized(req, secret)) return sendError(res, 401, 'authentication_error', 'H model gateway: this socket answers only the run it was opened for.');
    if (req.method !== 'POST' || !ALLOWED_PATHS.has(url.pathname)) {
      return sendError(res, 404, 'not_found_error', `H model gateway forwards POST /v1/messages only, not ${req.method} ${url.pathname}.`);
    }
    const refused = await run.admit();
    // 403, not 429: Claude Code retries 429 and 5xx, and a team limit does not pass by retrying.
    if (refused) return sendError(res, 403, 'permission_error', `H: ${refused}`);
    const body = await readBody(req, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY);
    if (body === null) return sendError(res, 413, 'request_too_large', 'H model gateway: the request body is too large.');
    let model = '';
    try {
      model = String((JSON.parse(body.toString('utf8')) as { model?: unknown }).model ?? '');
    } catch {
      return sendError(res, 400, 'invalid_request_error', 'H model gateway: the request body is not JSON.');
    }
    const headers: Record<string, string> = { 'x-api-key': run.apiKey };
    for (const h of FORWARD_REQUEST) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const idle = new AbortController();
    const both = AbortSignal.any([signal, idle.signal]);
    let timer = setTimeout(() => idle.abort(), this.opts.upstreamIdleMs ?? 600_000);
    const touch = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), this.opts.upstreamIdleMs ?? 600_000);
    };
    // Counted and traced like the H engine's requests (libs/runs run-telemetry.ts); the gateway
    // serves in the context of the run that opened it, so the span is the run's job's child.
    const started = performance.now();
    const { span } = startSpan(`model ${model}`, { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'anthropic', 'gen_ai.request.model': model }, { kind: SpanKind.CLIENT });
    let outcome = 'ok';
    const measured = (): void => {
      metrics.modelRequests.inc({ provider: 'anthropic', model, outcome });
      metrics.modelRequestDuration.observe({ provider: 'anthropic', model }, (performance.now() - started) / 1000);
      span.end();
    };
    let upstream: Response;
    try {
      upstream = await fetch(`${this.upstream}${url.pathname}${url.search}`, { method: 'POST', headers, body: new Uint8Array(body), signal: both });
    } catch (err) {
      clearTimeout(timer);
      outcome = signal.aborted ? 'aborted' : 'error';
      failSpan(span, err);
      measured();
      if (signal.aborted) return;
      this.opts.onError?.(err, run.runId);
      return sendError(res, 502, 'api_error', 'H model gateway: the model provider (ANTHROPIC_BASE_URL) is not reachable.');
    }
    const out: Record<string, string> = {};
    for (const h of FORWARD_RESPONSE) {
      const v = upstream.headers.get(h);
      if (v) out[h] = v;
    }
    res.writeHead(upstream.status, out);
    if (!upstream.ok) outcome = 'error';
    span.setAttribute('http.response.status_code', upstream.status);
    const counted = upstream.ok && url.pathname === '/v1/messages';
    const parser = new MessagesUsageParser((upstream.headers.get('content-type') ?? '').includes('text/event-stream'));
    try {
      if (upstream.body) {
        for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) {
          touch();
          if (counted) parser.push(chunk);
          if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        }
      }
    } catch (err) {
      outcome = signal.aborted ? 'aborted' : 'error';
      failSpan(span, err);
      if (!signal.aborted) this.opts.onError?.(err, run.runId);
    } finally {
      clearTimeout(timer);
      measured();
      res.end();
      // What the provider reported is billed, also for an answer cut short.
      const usage = counted ? parser.usage() : null;
      if (usage) await run.onUsage(usage, parser.model() ?? model);
    }
  }
}

function authorized(req: IncomingMessage, secret: string): boolean {
  const given = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      parts.push(b);
    });
    req.on('end', () => resolve(size > max ? null : Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  const text = JSON.stringify({ type: 'error', error: { type, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
