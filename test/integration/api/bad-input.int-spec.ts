import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient, HttpResponse } from '../../support/http-client';
import {
  documentedRoutes,
  fetchDocument,
  fillPath,
  OpenApiDocument,
  OpenApiSchema,
  resolveSchema,
  RouteRequest,
  ROUTES,
} from './route-table';
import { errorOf, Person, TeamFixture, teamWithRoles } from './team-fixture';
import { h2cErrorCode, isH2cPath, type ErrorCode } from '@h/contracts';

const BODY_LIMIT_BYTES = 8 * 1024;

interface BadCase {
  name: string;
  /** A raw body string, sent as is. */
  raw: string;
  headers?: Record<string, string>;
  /** When set, the status must be exactly this; otherwise any 4xx. */
  status?: number;
  code?: string;
}

interface Outcome {
  route: string;
  case: string;
  status: number;
  body: string;
}

/** A value of the wrong JSON type for a property of this schema. */
function wrongValue(schema: OpenApiSchema | undefined): unknown {
  // One of several types (a JSON-RPC id: string or integer): a value of none of them.
  const alternatives = schema?.oneOf;
  if (!schema?.type && alternatives?.length) {
    const types = new Set(alternatives.map((a) => a.type));
    return types.has('boolean') ? { not: 'a scalar' } : true;
  }
  switch (schema?.type) {
    case 'integer':
    case 'number':
      return 'twelve';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'not-an-array';
    case 'object':
      return 'not-an-object';
    default:
      return 12345;
  }
}

// Every route that takes a body gets the same battery of broken bodies; every answer must be a
// 4xx in the one error shape, and the api must keep serving.
describe('bad input on every route', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let doc: OpenApiDocument;
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    // /api/mcp parses its own bodies with MCP_BODY_MAX_BYTES (libs/mcp): the same limit here.
    stack = await startStack({ env: { BODY_LIMIT: '8kb', MCP_BODY_MAX_BYTES: String(BODY_LIMIT_BYTES) } });
    f = await teamWithRoles(stack.url, 'badinput');
    doc = await fetchDocument(stack.url);
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** The one caller each route is tried with: a team's owner, or nobody for public routes. */
  function actorFor(key: string): Person | null {
    const kind = ROUTES[key].access.kind;
    return kind === 'public' ? null : kind === 'instance-admin' ? f.instanceAdmin : f.owner;
  }

  async function send(key: string, req: RouteRequest, body: string | undefined, headers: Record<string, string> = {}, pathOverride?: string) {
    const [method, template] = key.split(' ');
    const client = req.client ?? actorFor(key)?.client ?? new HttpClient(stack.url);
    const path = pathOverride ?? fillPath(template, req.params) + (req.query ?? '');
    return client.request(method, path, body, headers);
  }

  function problems(route: string, name: string, res: HttpResponse, status?: number, code?: string): string[] {
    outcomes.push({ route, case: name, status: res.status, body: res.text.slice(0, 200) });
    const out: string[] = [];
    const where = `${route} [${name}] -> ${res.status} ${res.text.slice(0, 160)}`;
    if (status !== undefined ? res.status !== status : res.status < 400 || res.status >= 500) out.push(`status: ${where}`);
    const error = errorOf(res);
    // The h2c routes answer in h2c's vocabulary: the same refusal under its h2c code.
    const expected = code && isH2cPath(route.split(' ')[1] ?? '') ? h2cErrorCode(code as ErrorCode, res.status) : code;
    if (!error) out.push(`shape: ${where}`);
    else if (expected && error.code !== expected) out.push(`code ${error.code} != ${expected}: ${where}`);
    return out;
  }

  /** Documented routes with a body; one missing from the table fails the first test instead. */
  function bodyRoutes() {
    return documentedRoutes(doc).filter((r) => r.op.requestBody?.content?.['application/json'] && r.key in ROUTES);
  }

  function bodySchema(op: { requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> } }): OpenApiSchema {
    const schema = resolveSchema(doc, op.requestBody?.content?.['application/json']?.schema);
    if (!schema) throw new Error('a documented body without a JSON schema');
    return schema;
  }

  it('should find the same routes with a body in the docs as in the route table', async () => {
    const withBody: string[] = [];
    for (const key of Object.keys(ROUTES)) {
      if ((await ROUTES[key].prepare(f, actorFor(key))).body !== undefined) withBody.push(key);
    }
    // Upload routes take raw bodies (libs/http RAW_BODY_ROUTES; their refusals: test/integration/files).
    const documented = documentedRoutes(doc).filter((r) => r.op.requestBody?.content?.['application/json']);
    expect(documented.map((r) => r.key).sort()).toEqual(withBody.sort());
    expect(withBody.length).toBeGreaterThan(5);
  });

  it('should answer 400 VALIDATION_FAILED when a required field is missing, has the wrong type, or an unknown field is sent', async () => {
    const found: string[] = [];
    for (const { key, op } of bodyRoutes()) {
      const schema = bodySchema(op);
      const fields = Object.keys(schema.properties ?? {});
      expect({ key, fields: fields.length > 0 }).toEqual({ key, fields: true });
      const cases: [string, unknown][] = [];
      for (const field of schema.required ?? []) cases.push([`missing ${field}`, { omit: field }]);
      for (const field of fields) cases.push([`${field} of the wrong type`, { wrong: field }]);
      cases.push(['unknown field', { extra: { isAdmin: true } }]);
      cases.push(['__proto__ field', { raw: '__proto__' }]);
      cases.push(['constructor field', { raw: 'constructor' }]);
      if (schema.required?.length) cases.push(['empty object', { empty: true }]);

      for (const [name, how] of cases) {
        const req = await ROUTES[key].prepare(f, actorFor(key));
        const valid = req.body as Record<string, unknown>;
        const h = how as { omit?: string; wrong?: string; extra?: Record<string, unknown>; raw?: string; empty?: boolean };
        let raw: string;
        if (h.omit) raw = JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== h.omit)));
        else if (h.wrong) raw = JSON.stringify({ ...valid, [h.wrong]: wrongValue(resolveSchema(doc, schema.properties?.[h.wrong])) });
        else if (h.extra) raw = JSON.stringify({ ...valid, ...h.extra });
        else if (h.raw) raw = JSON.stringify(valid).replace(/^\{/, `{"${h.raw}":{"role":"owner"},`);
        else raw = '{}';
        found.push(...problems(key, name, await send(key, req, raw), 400, 'VALIDATION_FAILED'));
      }
    }
    expect(found).toEqual([]);
  });

  it('should answer 400 INVALID_JSON for malformed JSON and for bodies that are not an object', async () => {
    const cases: BadCase[] = [
      { name: 'truncated JSON', raw: '{"name": "x"', status: 400, code: 'INVALID_JSON' },
      { name: 'single quotes', raw: "{'name': 'x'}", status: 400, code: 'INVALID_JSON' },
      { name: 'trailing comma', raw: '{"name": "x",}', status: 400, code: 'INVALID_JSON' },
      { name: 'a number', raw: '42', status: 400 },
      { name: 'null', raw: 'null', status: 400 },
      { name: 'a string', raw: '"hello"', status: 400 },
      { name: 'true', raw: 'true', status: 400 },
      { name: 'an empty array', raw: '[]', status: 400 },
      { name: 'an array of the valid body', raw: '', status: 400 },
    ];
    const found: string[] = [];
    for (const { key } of bodyRoutes()) {
      for (const c of cases) {
        const req = await ROUTES[key].prepare(f, actorFor(key));
        const raw = c.raw || JSON.stringify([req.body]);
        found.push(...problems(key, c.name, await send(key, req, raw, c.headers), c.status, c.code));
      }
    }
    expect(found).toEqual([]);
  });

  it('should say what is wrong with a body in words a person can act on', async () => {
    const client = f.owner.client;
    const answer = async (raw: string) => {
      const res = await client.request('POST', '/api/v1/teams', raw, {});
      return { status: res.status, ...errorOf(res) };
    };
    // Valid JSON of the wrong kind is not "invalid JSON".
    expect(await answer('42')).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'The request body must be a JSON object, not a number.' });
    expect(await answer('null')).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'The request body must be a JSON object, not null.' });
    expect(await answer('[{"name":"x"}]')).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'The request body must be a JSON object, not an array.' });
    expect(await answer('{"name":')).toEqual({ status: 400, code: 'INVALID_JSON', message: 'The request body is not valid JSON.' });
    // The kind of a field first; an unknown field with the ones the route takes.
    expect(await answer('{"name":42}')).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'name must be a string' });
    expect(await answer('{"name":"x","slug":"y"}')).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'slug is not a field here; the fields are name' });
    const ws = await client.request('POST', `/api/v1/teams/${f.teamId}/workspaces`, JSON.stringify({ name: 'w', source: { kind: 'git', url: 'https://example.com/r.git', branchh: 'main' } }), {});
    expect(errorOf(ws)?.message).toMatch(/^source\.branchh is not a field here; the fields are .*\bbranch\b/);
  });

  it('should answer 413 PAYLOAD_TOO_LARGE when the body is over BODY_LIMIT', async () => {
    const found: string[] = [];
    for (const { key } of bodyRoutes()) {
      const req = await ROUTES[key].prepare(f, actorFor(key));
      const raw = JSON.stringify({ ...(req.body as object), padding: 'x'.repeat(BODY_LIMIT_BYTES * 2) });
      found.push(...problems(key, 'over the limit', await send(key, req, raw), 413, 'PAYLOAD_TOO_LARGE'));
    }
    expect(found).toEqual([]);
  });

  it('should answer 415 UNSUPPORTED_MEDIA_TYPE when the body is not sent as JSON, and change nothing', async () => {
    const before = (await f.owner.client.get(`/api/v1/workspaces/${f.workspaceId}`)).body;
    const found: string[] = [];
    for (const { key } of bodyRoutes()) {
      const req = await ROUTES[key].prepare(f, actorFor(key));
      const valid = req.body as Record<string, string>;
      const form = new URLSearchParams(Object.entries(valid).map(([k, v]) => [k, String(v)])).toString();
      const variants: [string, string, Record<string, string>][] = [
        ['text/plain', JSON.stringify(valid), { 'content-type': 'text/plain' }],
        ['form-urlencoded', form, { 'content-type': 'application/x-www-form-urlencoded' }],
        ['multipart', '--b\r\n\r\nx\r\n--b--', { 'content-type': 'multipart/form-data; boundary=b' }],
        ['JSON in latin-1', JSON.stringify(valid), { 'content-type': 'application/json; charset=iso-8859-1' }],
      ];
      for (const [name, raw, headers] of variants) {
        found.push(...problems(key, name, await send(key, req, raw, headers), 415, 'UNSUPPORTED_MEDIA_TYPE'));
      }
    }
    expect(found).toEqual([]);
    expect((await f.owner.client.get(`/api/v1/workspaces/${f.workspaceId}`)).body).toEqual(before);
  });

  it('should answer 4xx (never 5xx) when a path parameter is not a UUID or names nothing', async () => {
    const found: string[] = [];
    const bad = ['not-a-uuid', '123', "1' OR '1'='1", '00000000-0000-0000-0000-00000000000g', '%00', '11111111-1111-4111-8111-111111111111'];
    for (const [key, spec] of Object.entries(ROUTES)) {
      const [, template] = key.split(' ');
      const uuidParams = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((p) => p !== 'provider');
      if (!uuidParams.length) continue;
      for (const param of uuidParams) {
        for (const value of bad) {
          const req = await spec.prepare(f, actorFor(key));
          const path = fillPath(template, { ...req.params, [param]: 'PLACEHOLDER' }).replace('PLACEHOLDER', encodeURIComponent(value));
          const body = req.body === undefined ? undefined : JSON.stringify(req.body);
          found.push(...problems(key, `${param}=${value}`, await send(key, req, body, {}, path + (req.query ?? ''))));
        }
      }
    }
    expect(found).toEqual([]);
    // A well-formed id that names nothing is "not found", like another team's.
    const missing = await f.owner.client.get('/api/v1/workspaces/11111111-1111-4111-8111-111111111111');
    expect(missing.status).toBe(404);
  });

  it('should answer 400 when a query parameter is out of range, of the wrong type, or unknown', async () => {
    const sessionId = (await f.owner.client.post(`/api/v1/workspaces/${f.workspaceId}/sessions`, {})).body.id as string;
    const cases: [string, string[], string][] = [
      [
        `/api/v1/teams/${f.teamId}/audit`,
        ['limit=0', 'limit=-1', 'limit=201', 'limit=abc', 'limit=1.5', 'before=abc', 'before=-5', 'before=1234567890123456789012', 'unknown=1'],
        'limit=200&before=1',
      ],
      [`/api/v1/sessions/${sessionId}/events`, ['after=-1', 'after=x', 'limit=0', 'limit=1001', 'limit=2.5', 'unknown=1'], 'after=0&limit=1000'],
      [`/api/v1/sessions/${sessionId}/events/stream`, ['after=-1', 'after=abc', 'unknown=1'], ''],
      [`/api/v1/teams/${f.teamId}/usage`, ['month=2026-13', 'month=2026-1', 'month=november', 'unknown=1'], 'month=2026-01'],
    ];
    const found: string[] = [];
    for (const [path, bad, good] of cases) {
      for (const query of bad) {
        found.push(...problems(`GET ${path}`, query, await f.owner.client.get(`${path}?${query}`), 400, 'VALIDATION_FAILED'));
      }
      if (!path.endsWith('/stream')) expect((await f.owner.client.get(`${path}?${good}`)).status).toBe(200);
    }
    const badResume = await f.owner.client.request('GET', `/api/v1/sessions/${sessionId}/events/stream`, undefined, { 'last-event-id': 'abc' });
    found.push(...problems('GET stream', 'Last-Event-ID=abc', badResume, 400));
    expect(found).toEqual([]);
  });

  it('should answer 404 JSON for unknown routes and methods', async () => {
    const found: string[] = [];
    const client = f.owner.client;
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['GET', '/api/v1'],
      ['GET', '/api/v2/teams'],
      ['POST', '/api/v1/teams/x/y/z'],
      ['DELETE', '/api/v1/me'],
      ['PUT', '/api/v1/teams'],
      ['GET', '/api/v1/auth/login'],
      // The harness turns the web proxy off (WEB_INTERNAL_URL=''), so the api answers these too.
      ['GET', '/nope'],
      ['POST', '/'],
    ]) {
      found.push(...problems(`${method} ${path}`, 'unknown', await client.request(method, path), 404, 'NOT_FOUND'));
    }
    expect(found).toEqual([]);
  });

  it('should keep serving afterwards and never have answered with a 5xx', async () => {
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    const health = await fetch(`${stack.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await f.owner.client.get('/api/v1/me')).status).toBe(200);
  });
});
