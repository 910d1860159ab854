import { Client } from 'pg';
import { HttpClient, HttpResponse, randomEmail, signedUpClient, TEST_PASSWORD } from '../../support/http-client';
import { TEST_DATABASE_URL } from '../../support/test-env';
import { recordSecrets } from '../security/secret-registry';

export type Role = 'owner' | 'admin' | 'member' | 'viewer';
export const ROLES_LOW_TO_HIGH: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];

export interface Person {
  client: HttpClient;
  email: string;
  userId: string;
}

/** One team with a person in every role, plus an outsider who owns a team of their own. */
export interface TeamFixture {
  url: string;
  teamId: string;
  owner: Person;
  admin: Person;
  member: Person;
  viewer: Person;
  outsider: Person;
  /** A signed-up person in no team of the fixture who is an instance admin (User.isInstanceAdmin). */
  instanceAdmin: Person;
  outsiderTeamId: string;
  workspaceId: string;
  byRole(role: Role): Person;
}

function expectStatus(res: HttpResponse, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
}

export async function createTeam(person: Person, name: string): Promise<string> {
  const res = await person.client.post('/api/v1/teams', { name });
  expectStatus(res, 201, 'create team');
  return res.body.id;
}

export async function createWorkspace(person: Person, teamId: string, name: string): Promise<string> {
  const res = await person.client.post(`/api/v1/teams/${teamId}/workspaces`, { name });
  expectStatus(res, 201, 'create workspace');
  return res.body.id;
}

/** An invitation link's token, made by `by` (an admin or owner of the team). */
export async function invite(by: Person, teamId: string, body: { role: Role; email?: string; maxUses?: number; expiresInDays?: number }): Promise<string> {
  const res = await by.client.post(`/api/v1/teams/${teamId}/members`, body);
  expectStatus(res, 201, `invite a ${body.role}`);
  recordSecrets(res.body.token);
  return res.body.token;
}

/** Signs up a new person with an invitation from the owner, so they join the team with `role`. */
export async function addPerson(url: string, owner: Person, teamId: string, role: Role, tag: string): Promise<Person> {
  const token = await invite(owner, teamId, { role });
  const client = new HttpClient(url);
  const email = randomEmail(tag);
  const res = await client.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: tag, invitationToken: token });
  expectStatus(res, 201, `sign up a ${role}`);
  if (res.body.joined?.teamId !== teamId) throw new Error(`the ${role} did not join the team: ${res.text}`);
  return { client, email, userId: res.body.user.id };
}

export async function teamWithRoles(url: string, tag = 'roles'): Promise<TeamFixture> {
  const owner = await signedUpClient(url, `${tag}-owner`);
  const teamId = await createTeam(owner, `${tag} team`);
  const [admin, member, viewer, outsider, instanceAdmin] = await Promise.all([
    addPerson(url, owner, teamId, 'admin', `${tag}-admin`),
    addPerson(url, owner, teamId, 'member', `${tag}-member`),
    addPerson(url, owner, teamId, 'viewer', `${tag}-viewer`),
    signedUpClient(url, `${tag}-outsider`),
    signedUpInstanceAdmin(url, `${tag}-instance-admin`),
  ]);
  // The first account of a fresh test database is its instance admin; the fixture's people are not.
  await sql('UPDATE "User" SET "isInstanceAdmin" = false WHERE id = ANY($1::uuid[])', [[owner, admin, member, viewer, outsider].map((p) => p.userId)]);
  const outsiderTeamId = await createTeam(outsider, `${tag} other team`);
  const workspaceId = await createWorkspace(owner, teamId, `${tag}-ws`);
  const people = { owner, admin, member, viewer };
  return { url, teamId, owner, admin, member, viewer, outsider, instanceAdmin, outsiderTeamId, workspaceId, byRole: (r) => people[r] };
}

/**
 * A new account made an instance admin. Only the instance's first account is one, and which
 * account came first in a shared test database is chance, so the flag is set directly.
 */
export async function signedUpInstanceAdmin(url: string, tag: string): Promise<Person> {
  const person = await signedUpClient(url, tag);
  await sql('UPDATE "User" SET "isInstanceAdmin" = true WHERE id = $1', [person.userId]);
  return person;
}

/** A second, independent browser session of an existing account. */
export async function loggedInClient(url: string, email: string, password = TEST_PASSWORD): Promise<HttpClient> {
  const client = new HttpClient(url);
  const res = await client.post('/api/v1/auth/login', { email, password });
  expectStatus(res, 200, 'login');
  return client;
}

/** Creates an API token through the browser session of `person` and returns its secret. */
export async function createToken(
  person: Person,
  teamId: string,
  body: { name?: string; scopes?: string[]; workspaceId?: string; expiresInDays?: number } = {},
): Promise<{ id: string; secret: string; prefix: string }> {
  const res = await person.client.post(`/api/v1/teams/${teamId}/tokens`, { name: 'test-token', ...body });
  expectStatus(res, 201, 'create token');
  recordSecrets(res.body.secret);
  return { id: res.body.token.id, secret: res.body.secret, prefix: res.body.token.prefix };
}

export function bearerClient(url: string, secret: string): HttpClient {
  const client = new HttpClient(url);
  client.bearer = secret;
  return client;
}

/** Direct SQL against the test database, for checks the API deliberately does not expose. */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as T[];
  } finally {
    await db.end();
  }
}

/**
 * The code and message of an error answer in either of H's shapes: `{ error: { code, message } }`,
 * or h2c's `{ error: "<code>", message }` on the h2c routes. Null when the body is neither.
 */
export function errorOf(res: { body: unknown }): { code: string; message: string } | null {
  const body = res.body as { error?: unknown; message?: unknown } | undefined;
  if (!body || typeof body !== 'object') return null;
  if (typeof body.error === 'string') return body.error && typeof body.message === 'string' && body.message ? { code: body.error, message: body.message } : null;
  const error = body.error as { code?: unknown; message?: unknown; data?: { code?: unknown } } | undefined;
  // The MCP endpoint's refusals past authentication are JSON-RPC errors carrying H's code in data.
  if ((body as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof error?.code === 'number') {
    return typeof error.data?.code === 'string' && typeof error.message === 'string' && error.message ? { code: error.data.code, message: error.message } : null;
  }
  if (!error || typeof error.code !== 'string' || !error.code || typeof error.message !== 'string' || !error.message) return null;
  return { code: error.code, message: error.message };
}

/** Asserts the one error shape every failure must have (h2c's on its routes, JSON-RPC's past auth on /api/mcp); returns the code. */
export function errorCode(res: HttpResponse): string {
  if (typeof (res.body as { error?: unknown } | undefined)?.error === 'string') {
    const h2c = errorOf(res);
    if (!h2c) throw new Error(`not an h2c error body (${res.status}): ${res.text.slice(0, 300)}`);
    return h2c.code;
  }
  if ((res.body as { jsonrpc?: unknown } | undefined)?.jsonrpc === '2.0') {
    const mcp = errorOf(res);
    if (!mcp) throw new Error(`not an MCP JSON-RPC error with data.code (${res.status}): ${res.text.slice(0, 300)}`);
    return mcp.code;
  }
  const body = res.body as { error?: { code?: unknown; message?: unknown } } | undefined;
  if (!body || typeof body !== 'object' || !body.error || typeof body.error.code !== 'string' || !body.error.code) {
    throw new Error(`not an error body (${res.status}): ${res.text.slice(0, 300)}`);
  }
  if (typeof body.error.message !== 'string' || !body.error.message) throw new Error(`error without a message: ${res.text}`);
  return body.error.code;
}

/** Keeps every response the watched clients receive, to prove a secret never comes back. */
export class ResponseLog {
  readonly responses: { method: string; path: string; res: HttpResponse }[] = [];

  watch<C extends HttpClient>(client: C): C {
    const original = client.request.bind(client);
    client.request = (async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const res = await original(method, path, body, headers);
      this.responses.push({ method, path, res });
      return res;
    }) as HttpClient['request'];
    return client;
  }

  /** Requests whose response carried `needle` in its body or any header. */
  containing(needle: string): string[] {
    return this.responses
      .filter(({ res }) => res.text.includes(needle) || headerText(res.headers).includes(needle))
      .map(({ method, path, res }) => `${method} ${path} -> ${res.status}`);
  }
}

function headerText(headers: Headers): string {
  const lines: string[] = [];
  headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  return lines.join('\n');
}

/**
 * GET of an endless text/event-stream with the client's credentials: answers with the status,
 * the headers and the first chunk, then hangs up. Error answers (JSON) are read whole.
 */
export async function openStream(client: HttpClient, path: string): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (client.cookies.size) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (client.bearer) headers.authorization = `Bearer ${client.bearer}`;
  const abort = new AbortController();
  const res = await fetch(client.baseUrl + path, { headers, signal: abort.signal });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, text, body };
  }
  const reader = res.body?.getReader();
  const first = reader ? await reader.read() : { value: undefined };
  abort.abort();
  const text = first.value ? Buffer.from(first.value).toString('utf8') : '';
  return { status: res.status, headers: res.headers, text, body: text };
}
