import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { normalizeHost } from '@h/egress';
import { ModelError } from '@h/llm';
import { assertPublicAddress, checkUrlShape, isApprovedInternalHost, ProviderUrlError } from './provider-url';

// One pool per scheme for every team provider: each socket in it was opened to an address the
// lookup below accepted, under the same instance allow-list.
const agents = { http: new HttpAgent({ keepAlive: true, maxFreeSockets: 16 }), https: new HttpsAgent({ keepAlive: true, maxFreeSockets: 16 }) };

/**
 * A fetch for a team's own provider that judges what it actually connects to: the URL's shape
 * again (provider-url.ts), and every address the host resolves to at connection time, in the
 * lookup the socket uses (no second resolution a rebinding DNS could answer differently). A
 * redirect is never followed: it fails with a message naming the target, since following it would
 * leave the approved URL. `providerName` names the provider in every refusal.
 */
export function createGuardedFetch(allowed: readonly string[], providerName: string): typeof fetch {
  const refuse = (message: string) => new ModelError('network', `${providerName}: ${message}`);
  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    try {
      checkUrlShape(url, allowed);
    } catch (err) {
      throw err instanceof ProviderUrlError ? refuse(err.message) : err;
    }
    const host = normalizeHost(url.hostname);
    const approved = isApprovedInternalHost(host, allowed);
    let refusal: ModelError | null = null;
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        try {
          if (!approved) for (const a of addresses) assertPublicAddress(host, a.address);
        } catch (e) {
          refusal = refuse((e as Error).message);
          return callback(refusal, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).forEach((value, key) => (headers[key] = value));
    const body = await bodyBytes(init?.body);
    const options: RequestOptions = {
      method: init?.method ?? 'GET',
      headers,
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      signal: init?.signal ?? undefined,
      // An IP literal never reaches `lookup`: checkUrlShape judged it above.
      ...(isIP(host) ? {} : { lookup }),
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, options, (res: IncomingMessage) => {
        const status = res.statusCode ?? 502;
        if (status >= 300 && status < 400) {
          res.resume();
          const target = String(res.headers.location ?? '').slice(0, 200);
          reject(refuse(`${url.origin} answered with a redirect (HTTP ${status}${target ? ` to ${target}` : ''}); H does not follow redirects from a team's provider. Set the final URL as the base URL.`));
          return;
        }
        const out = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const stream = status === 204 || options.method === 'HEAD' ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, statusText: res.statusMessage, headers: out }));
      });
      req.on('error', (err) => reject(refusal ?? err));
      req.end(body);
    });
  }) as typeof fetch;
}

async function bodyBytes(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return Buffer.from(body instanceof ArrayBuffer ? body : body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  // The SDK sends JSON text; anything else (a stream, a form) goes through Response to bytes.
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}
