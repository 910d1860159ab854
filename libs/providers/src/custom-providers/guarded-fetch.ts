import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { normalizeHost } from '@h/egress';
import { createNodeFetch, HONOURS_BODY_ACTIVITY, ModelError, type TransportFetch } from '@h/llm';
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
export function createGuardedFetch(allowed: readonly string[], providerName: string): TransportFetch {
  const refuse = (message: string) => new ModelError('network', `${providerName}: ${message}`);
  const transport = createNodeFetch({
    agents,
    lookup: (url) => {
      const host = normalizeHost(url.hostname);
      // An IP literal never reaches a lookup: checkUrlShape judged it before the request.
      if (isIP(host)) return undefined;
      const approved = isApprovedInternalHost(host, allowed);
      const lookup: LookupFunction = (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
          if (err) return callback(err, '', 0);
          try {
            if (!approved) for (const a of addresses) assertPublicAddress(host, a.address);
          } catch (e) {
            // The socket fails with this very error, so the request's error is the refusal.
            return callback(refuse((e as Error).message), '', 0);
          }
          if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
          callback(null, addresses[0].address, addresses[0].family);
        });
      };
      return lookup;
    },
    check: (res, url) => {
      const status = res.statusCode ?? 502;
      if (status < 300 || status >= 400) return null;
      const target = String(res.headers.location ?? '').slice(0, 200);
      return refuse(`${url.origin} answered with a redirect (HTTP ${status}${target ? ` to ${target}` : ''}); H does not follow redirects from a team's provider. Set the final URL as the base URL.`);
    },
  });
  const guarded = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    try {
      checkUrlShape(url, allowed);
    } catch (err) {
      throw err instanceof ProviderUrlError ? refuse(err.message) : err;
    }
    return transport(url, init);
  }) as TransportFetch;
  guarded[HONOURS_BODY_ACTIVITY] = true;
  return guarded;
}
