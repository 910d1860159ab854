// The idle timeout must see every byte, not only parsed events: DeepSeek keeps a queued request
// alive with SSE comments (": keep-alive") that the SDK's parser swallows. This fetch wrapper
// reports body activity to the attempt that sent the request, found by a private header that is
// removed before the request leaves the process.
import { BODY_ACTIVITY, createNodeFetch, HONOURS_BODY_ACTIVITY, type TransportFetch } from './node-fetch';

export const ACTIVITY_HEADER = 'x-h-activity-id';

export class ActivityTracker {
  private readonly listeners = new Map<string, () => void>();
  private counter = 0;

  /** `base` is the transport underneath (node:http, node-fetch.ts, unless a provider brings its own). */
  constructor(private readonly base: TransportFetch = createNodeFetch()) {}

  register(onActivity: () => void): { id: string; dispose: () => void } {
    const id = String(++this.counter);
    this.listeners.set(id, onActivity);
    return { id, dispose: () => this.listeners.delete(id) };
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const id = headers.get(ACTIVITY_HEADER);
    if (id === null) return this.base(input, init);
    headers.delete(ACTIVITY_HEADER);
    const touch = this.listeners.get(id);
    // A transport of ours reports each chunk itself: no second stream for the body to go through.
    if (touch && this.base[HONOURS_BODY_ACTIVITY]) {
      const response = await this.base(input, { ...init, headers, [BODY_ACTIVITY]: touch } as RequestInit);
      touch();
      return response;
    }
    const response = await this.base(input, { ...init, headers });
    if (!touch || !response.body) return response;
    touch();
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          touch();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
