import { randomUUID } from 'node:crypto';

export interface HttpResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/**
 * A browser-like client over real HTTP: keeps cookies, echoes the CSRF cookie on writes (like the
 * web app does), or authenticates with a bearer token like a bot.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();
  bearer?: string;
  sendCsrf = true;

  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined && typeof body !== 'string') h['content-type'] = 'application/json';
    if (typeof body === 'string' && !h['content-type']) h['content-type'] = 'application/json';
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('h_csrf');
    if (this.sendCsrf && csrf && !['GET', 'HEAD'].includes(method)) h['x-csrf-token'] = csrf;
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`;
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [name, ...rest] = pair.split('=');
      const value = rest.join('=');
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

export const TEST_PASSWORD = 'correct-horse-battery-staple';

export function randomEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.test`;
}

/** Signs up a fresh user and returns a logged-in client. */
export async function signedUpClient(baseUrl: string, tag = 'user'): Promise<{ client: HttpClient; email: string; userId: string }> {
  const client = new HttpClient(baseUrl);
  const email = randomEmail(tag);
  const res = await client.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: tag });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  return { client, email, userId: res.body.user.id };
}
