import { createHash, randomUUID } from 'node:crypto';
import { HttpClient, HttpResponse } from '../../support/http-client';
import { dockerExec } from '../sandbox/sandbox-test-kit';

/** The file API's paths for one workspace. */
export const filesApi = (workspaceId: string) => {
  const base = `/api/v1/workspaces/${workspaceId}/files`;
  const q = (path: string) => `?path=${encodeURIComponent(path)}`;
  return {
    tree: (path = '', extra = '') => `${base}/tree${q(path)}${extra}`,
    content: (path: string) => `${base}/content${q(path)}`,
    text: (path: string) => `${base}/text${q(path)}`,
    entry: (path: string, extra = '') => `${base}${q(path)}${extra}`,
    move: () => `${base}/move`,
    upload: (path: string) => `${base}/upload${q(path)}`,
  };
};

export const uniquePath = (tag: string) => `t-${tag}-${randomUUID().slice(0, 8)}.txt`;

export const sha256Etag = (data: Buffer | string) => `"${createHash('sha256').update(data).digest('hex')}"`;

/** Raw request with a Buffer body and the caller's cookies/CSRF (HttpClient sends JSON only). */
export async function rawRequest(
  client: HttpClient,
  method: string,
  path: string,
  body: Buffer | FormData | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer; json: any }> {
  const h: Record<string, string> = { ...headers };
  if (client.cookies.size) h.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrf = client.cookies.get('h_csrf');
  if (csrf && !['GET', 'HEAD'].includes(method)) h['x-csrf-token'] = csrf;
  if (client.bearer) h.authorization = `Bearer ${client.bearer}`;
  const res = await fetch(client.baseUrl + path, { method, headers: h, body: body as BodyInit | undefined });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: any;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, json };
}

/** Runs a shell command in the workspace's container outside the api (as a terminal or the worker would). */
export function execInSandbox(sandboxPrefix: string, workspaceId: string, command: string): Promise<string> {
  return dockerExec(`${sandboxPrefix}ws-${workspaceId}`, ['sh', '-c', `cd /workspace && ${command}`]);
}

export function expectError(res: HttpResponse | { status: number; json: any }, status: number, code: string): void {
  const body = 'json' in res ? res.json : res.body;
  expect({ status: res.status, code: body?.error?.code }).toEqual({ status, code });
  expect(typeof body?.error?.message).toBe('string');
}
