// An h2c client as Hermes is one: plain HTTP with `Authorization: Basic` (the API token as the
// password), JSON bodies, and the task stream read as data-only SSE frames.

export interface H2cAnswer {
  status: number;
  body: any;
  text: string;
}

export function basicAuth(token: string, user = 'hermes'): string {
  return `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
}

export class H2cClient {
  constructor(
    readonly baseUrl: string,
    private readonly authorization: string | null,
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<H2cAnswer> {
    const headers: Record<string, string> = {};
    if (this.authorization) headers.authorization = this.authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, text };
  }

  create(body: Record<string, unknown>) {
    return this.request('POST', '/v1/task/create', body);
  }
  output(taskId: string) {
    return this.request('GET', `/v1/task/output?task_id=${encodeURIComponent(taskId)}`);
  }
  task(taskId: string, trailingSlash = false) {
    return this.request('GET', `/v1/task${trailingSlash ? '/' : ''}?task_id=${encodeURIComponent(taskId)}`);
  }
  cancel(taskId: string) {
    return this.request('POST', '/v1/task/cancel', { task_id: taskId });
  }
  permission(body: Record<string, unknown>) {
    return this.request('POST', '/v1/task/permission', body);
  }

  /**
   * Reads `/v1/task/output/stream` until the server ends it (after `done`) or `signal` aborts;
   * every `data:` frame goes to `onFrame` as it arrives. Resolves with the status and the frames.
   */
  async stream(query: string, onFrame: (frame: any) => void | Promise<void> = () => undefined, signal?: AbortSignal): Promise<{ status: number; frames: any[]; contentType: string | null }> {
    const headers: Record<string, string> = {};
    if (this.authorization) headers.authorization = this.authorization;
    const res = await fetch(`${this.baseUrl}/v1/task/output/stream?${query}`, { headers, signal });
    const frames: any[] = [];
    if (!res.ok || !res.body) return { status: res.status, frames: [await res.json()], contentType: res.headers.get('content-type') };
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(piece, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          for (const line of block.split('\n')) {
            if (!line.startsWith('data: ')) continue;
            const frame = JSON.parse(line.slice(6));
            frames.push(frame);
            await onFrame(frame);
          }
        }
      }
    } catch (err) {
      if (!signal?.aborted) throw err;
    }
    return { status: res.status, frames, contentType: res.headers.get('content-type') };
  }
}
