// Must stay the first import: it points the harness and the fixtures at this spec's own database.
import { OWN_DATABASE_NAME, tableDigests } from '../../support/own-database';
import { Client } from 'pg';
import type { Socket } from 'socket.io-client';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { emitRaw, rawHttp } from '../../support/raw-transport';
import { TEST_DATABASE_URL } from '../../support/test-env';
import { connectSocket, cookieHeader } from '../runs/stream-clients';
import { BadValue, badValuesFor, bodyWith, Position, queryWith, Slot, slotsOf, unboundedStrings } from './bad-values';
import { documentedRoutes, fetchDocument, fillPath, newPermission, newRun, OpenApiDocument, RouteRequest, ROUTES } from './route-table';
import { errorOf, openStream, Person, TeamFixture, teamWithRoles } from './team-fixture';
import { h2cErrorCode, isH2cPath } from '@h/contracts';

interface Answer {
  status: number;
  text: string;
  body: unknown;
}

// Every operation of /api/docs-json, every body property, query, path and header parameter it
// takes, and every class of bad value (bad-values.ts): the answer is a 4xx with the one error
// shape, no table changed, and the api still answers /api/ready. Nothing here names a route.
describe('bad values in every position of every documented operation', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let doc: OpenApiDocument;
  let db: Client;
  let drop: () => Promise<void>;
  const failed = new Map<string, number>();

  beforeAll(async () => {
    drop = (await createIsolatedDatabase('own', OWN_DATABASE_NAME)).drop;
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'badvalues');
    doc = await fetchDocument(stack.url);
  });

  afterAll(async () => {
    if (failed.size) console.log(`bad values that were not refused, by class: ${JSON.stringify(Object.fromEntries(failed))}`);
    await stack?.close();
    await db?.end();
    await drop?.();
  });

  const actorFor = (key: string): Person | null => {
    const kind = ROUTES[key].access.kind;
    return kind === 'public' ? null : kind === 'instance-admin' ? f.instanceAdmin : f.owner;
  };
  const clientFor = (key: string, req: RouteRequest) => req.client ?? actorFor(key)?.client ?? new HttpClient(stack.url);

  async function send(key: string, req: RouteRequest, path: string, body: string | undefined): Promise<Answer> {
    const client = clientFor(key, req);
    if (ROUTES[key].stream) return openStream(client, path);
    return client.request(key.split(' ')[0], path, body, req.headers);
  }

  async function sendHeader(key: string, req: RouteRequest, name: string, value: string): Promise<Answer> {
    const [method, template] = key.split(' ');
    const client = clientFor(key, req);
    const lines = [`${method} ${fillPath(template, req.params)}${req.query ?? ''} HTTP/1.1`, `host: ${new URL(stack.url).host}`];
    if (client.cookies.size) lines.push(`cookie: ${cookieHeader(client)}`);
    if (client.bearer) lines.push(`authorization: Bearer ${client.bearer}`);
    for (const [k, v] of Object.entries(req.headers ?? {})) if (k.toLowerCase() !== name.toLowerCase()) lines.push(`${k}: ${v}`);
    lines.push(`${name}: ${value}`);
    return rawHttp(stack.url, lines.join('\r\n'));
  }

  function request(key: string, req: RouteRequest, slot: Slot, value: BadValue): Promise<Answer> {
    const [, template] = key.split(' ');
    const validBody = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const path = fillPath(template, req.params);
    switch (slot.in) {
      case 'body':
        return send(key, req, path + (req.query ?? ''), bodyWith(req.body, slot.name, value.json as string));
      case 'query':
        return send(key, req, path + queryWith(req.query, slot.name, value.text as string), validBody);
      case 'path': {
        const bad = fillPath(template, { ...req.params, [slot.name]: 'PLACEHOLDER' }).replace('PLACEHOLDER', value.text as string);
        return send(key, req, bad + (req.query ?? ''), validBody);
      }
      case 'header':
        return sendHeader(key, req, slot.name, value.text as string);
    }
  }

  function problemsOf(where: string, value: BadValue, res: Answer, before: Record<string, string>, after: Record<string, string>): string[] {
    const out: string[] = [];
    const line = `${where} [${value.kind}: ${value.name}] -> ${res.status} ${res.text.slice(0, 160)}`;
    if (res.status < 400 || res.status >= 500) out.push(`status: ${line}`);
    if (!errorOf(res)) out.push(`shape: ${line}`);
    const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
    if (changed.length) out.push(`wrote ${changed.join(', ')}: ${line}`);
    if (out.length) failed.set(value.kind, (failed.get(value.kind) ?? 0) + 1);
    return out;
  }

  async function ready(): Promise<boolean> {
    return (await fetch(`${stack.url}/api/ready`)).status === 200;
  }

  /** Sends every bad value for every slot of one position on every route; returns what went wrong. */
  async function sweep(position: Position): Promise<{ problems: string[]; sent: number }> {
    const problems: string[] = [];
    let sent = 0;
    for (const { key, path, op } of documentedRoutes(doc)) {
      const slots = slotsOf(doc, path, op).filter((s) => s.in === position);
      if (!slots.length || !(key in ROUTES)) continue;
      // Bad values never reach a service, so one valid request serves for all of them; sending
      // it unchanged at the end proves it was valid and that no bad value used up its target.
      const req = await ROUTES[key].prepare(f, actorFor(key));
      for (const slot of slots) {
        for (const value of badValuesFor(slot)) {
          const before = await tableDigests(db);
          const res = await request(key, req, slot, value);
          sent++;
          problems.push(...problemsOf(`${key} ${slot.in} ${slot.name}`, value, res, before, await tableDigests(db)));
        }
        if (!(await ready())) problems.push(`${key} ${slot.in} ${slot.name}: /api/ready failed afterwards`);
      }
      const valid = await send(key, req, fillPath(path, req.params) + (req.query ?? ''), req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body)));
      if (valid.status !== ROUTES[key].success) problems.push(`${key}: the valid request answered ${valid.status} ${valid.text.slice(0, 160)}`);
    }
    return { problems, sent };
  }

  it('should have a route-table entry (how to build a valid request) for every documented operation', () => {
    const missing = documentedRoutes(doc).filter((r) => !(r.key in ROUTES));
    expect(missing.map((r) => r.key)).toEqual([]);
  });

  it('should document a bound (maxLength, pattern, enum or uuid format) for every string a client sends', () => {
    expect(documentedRoutes(doc).flatMap(({ key, path, op }) => unboundedStrings(doc, path, op).map((s) => `${key}: ${s}`))).toEqual([]);
  });

  it.each<Position>(['body', 'query', 'path', 'header'])(
    'should answer every bad %s value with a 4xx error body, write nothing and keep serving',
    async (position) => {
      const { problems, sent } = await sweep(position);
      expect(problems).toEqual([]);
      expect(sent).toBeGreaterThan(position === 'header' ? 10 : 100);
    },
    // Every bad value is one request between two digests of every table, for every documented
    // operation: the body sweep grows with the API (over 120 s since the MCP and step-mode routes).
    600_000,
  );

  it('should refuse a body nested 500,000 levels deep (1 MB) on every route with a body', async () => {
    const problems: string[] = [];
    const raw = '['.repeat(500_000) + ']'.repeat(500_000);
    for (const { key, path, op } of documentedRoutes(doc)) {
      // Upload routes take any bytes as the file (libs/http RAW_BODY_ROUTES): not JSON, nothing nested.
      if (!op.requestBody?.content?.['application/json'] || !(key in ROUTES)) continue;
      const req = await ROUTES[key].prepare(f, actorFor(key));
      const res = await send(key, req, fillPath(path, req.params) + (req.query ?? ''), raw);
      const code = errorOf(res)?.code;
      const expected = isH2cPath(path) ? h2cErrorCode('VALIDATION_FAILED', 400) : 'VALIDATION_FAILED';
      if (res.status !== 400 || code !== expected) problems.push(`${key} -> ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(problems).toEqual([]);
    expect(await ready()).toBe(true);
  });

  describe('Socket.IO messages', () => {
    let socket: Socket;
    beforeAll(async () => {
      socket = await connectSocket(stack.url, { cookieOf: f.owner.client });
    });
    afterAll(() => socket?.close());

    // The client-to-server messages and a valid payload of each; field types as in bad-values.ts.
    const messages: Record<string, { valid: (f: TeamFixture) => Promise<Record<string, unknown>>; fields: Record<string, Slot['schema']> }> = {
      subscribe: {
        valid: async (fx) => ({ sessionId: (await newRun(fx)).sessionId, afterSeq: 0 }),
        fields: { sessionId: { type: 'string', format: 'uuid' }, afterSeq: { type: 'integer' } },
      },
      unsubscribe: { valid: async (fx) => ({ sessionId: (await newRun(fx)).sessionId }), fields: { sessionId: { type: 'string', format: 'uuid' } } },
      'permission.decide': {
        valid: async (fx) => ({ permissionId: await newPermission(fx), behavior: 'deny', message: 'no' }),
        fields: {
          permissionId: { type: 'string', format: 'uuid' },
          behavior: { type: 'string', enum: ['allow', 'deny'] },
          updatedInput: { type: 'object' },
          message: { type: 'string', maxLength: 2000 },
        },
      },
      'run.cancel': { valid: async (fx) => ({ runId: (await newRun(fx)).runId }), fields: { runId: { type: 'string', format: 'uuid' } } },
    };

    it('should acknowledge every bad value with VALIDATION_FAILED, write nothing and keep the socket', async () => {
      const problems: string[] = [];
      for (const [event, { valid, fields }] of Object.entries(messages)) {
        const payload = await valid(f);
        for (const [name, schema] of Object.entries(fields)) {
          for (const value of badValuesFor({ in: 'body', name, schema })) {
            const before = await tableDigests(db);
            const ack = (await emitRaw(socket, event, bodyWith(payload, name, value.json as string))) as { ok?: boolean; error?: { code?: string } };
            const changed = Object.entries(await tableDigests(db)).filter(([t, d]) => before[t] !== d);
            if (ack?.ok !== false || ack.error?.code !== 'VALIDATION_FAILED' || changed.length) {
              failed.set(`socket ${value.kind}`, (failed.get(`socket ${value.kind}`) ?? 0) + 1);
              problems.push(`${event} ${name} [${value.kind}: ${value.name}] -> ${JSON.stringify(ack).slice(0, 160)}${changed.length ? ` wrote ${changed}` : ''}`);
            }
          }
        }
        const ack = (await emitRaw(socket, event, JSON.stringify(payload))) as { ok?: boolean };
        if (!ack?.ok) problems.push(`${event}: the valid payload was refused: ${JSON.stringify(ack)}`);
      }
      expect(problems).toEqual([]);
      expect(socket.connected).toBe(true);
      expect(await ready()).toBe(true);
    });
  });
});
