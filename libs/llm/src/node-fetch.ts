// The HTTP transport under the openai SDK: a `fetch` made of node:http(s) requests instead of the
// global fetch (undici). In the worker, where every model step is one streamed request, undici's
// request machinery and its web streams cost about 2 ms of CPU a request, node:http about 0.1-0.2
// (bench/runs, sixth and seventh passes). The SDK still gets a standard Response; its body is the
// socket's stream (Readable.toWeb), with backpressure.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/**
 * Set on a request's init by ActivityTracker: called on every chunk of the response body, so an
 * idle timeout sees bytes the SDK's parser swallows, without a stream piped through another.
 */
export const BODY_ACTIVITY = Symbol.for('h.llm.body-activity');
/** Marks a fetch made here: it honours BODY_ACTIVITY. */
export const HONOURS_BODY_ACTIVITY = Symbol.for('h.llm.honours-body-activity');

export type TransportFetch = typeof fetch & { [HONOURS_BODY_ACTIVITY]?: true };

export interface NodeFetchOptions {
  /** Keep-alive pools, one per scheme (default: pools shared by every provider of this process). */
  agents?: { http: HttpAgent; https: HttpsAgent };
  /** The address lookup for each connection (a guarded transport checks what it connects to). */
  lookup?: (url: URL) => LookupFunction | undefined;
  /** Judges the response before its body is read: an error refuses it (the body is discarded). */
  check?: (res: IncomingMessage, url: URL) => Error | null;
}

// Providers share these pools by default, as they shared undici's global dispatcher.
const shared = { http: new HttpAgent({ keepAlive: true, maxFreeSockets: 16 }), https: new HttpsAgent({ keepAlive: true, maxFreeSockets: 16 }) };

export function createNodeFetch(options: NodeFetchOptions = {}): TransportFetch {
  const agents = options.agents ?? shared;
  const fetcher = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).forEach((value, key) => (headers[key] = value));
    const method = init?.method ?? 'GET';
    const body = await bodyBytes(init?.body);
    const onChunk = (init as { [BODY_ACTIVITY]?: () => void } | undefined)?.[BODY_ACTIVITY];
    const https = url.protocol === 'https:';
    const lookup = options.lookup?.(url);
    const request: RequestOptions = {
      method,
      headers,
      agent: https ? agents.https : agents.http,
      signal: init?.signal ?? undefined,
      ...(lookup ? { lookup } : {}),
    };
    return new Promise<Response>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(url, request, (res: IncomingMessage) => {
        const refusal = options.check?.(res, url) ?? null;
        if (refusal) {
          res.resume();
          reject(refusal);
          return;
        }
        const status = res.statusCode ?? 502;
        const out = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const empty = status === 204 || status === 304 || method === 'HEAD';
        if (empty) res.resume();
        else if (onChunk) res.on('data', onChunk); // attached before toWeb's own listener: sees every chunk
        const stream = empty ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, statusText: res.statusMessage, headers: out }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }) as TransportFetch;
  fetcher[HONOURS_BODY_ACTIVITY] = true;
  return fetcher;
}

async function bodyBytes(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // The SDK sends JSON text; anything else (a stream, a form) goes through Response to bytes.
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}
