import { randomUUID } from 'node:crypto';
import type { CustomProvider } from '@h/contracts';
import { SecretBoxService } from '@h/providers';
import { startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { startStack, TestStack } from '../../support/api-harness';
import { freePort } from '../../support/free-port';
import { recordSecrets } from '../security/secret-registry';
import { errorCode, ResponseLog, sql, TeamFixture, teamWithRoles } from './team-fixture';

interface KeyRow {
  ciphertext: Buffer | null;
  iv: Buffer | null;
  authTag: Buffer | null;
  keyId: string | null;
}

// Issue 11, point 5: a team's own OpenAI-compatible providers. Admins add them (name, base URL,
// optional key, models), everyone in the team sees them without the key, sessions and presets
// choose them, other teams never see them. The stack allows 127.0.0.1 as an internal host
// (api-harness), as an instance with a local vLLM would.
describe('custom providers', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let model: ScriptedModelServer;
  const MODEL_KEY = `sk-local-${randomUUID()}`;
  const log = new ResponseLog();
  const keys: string[] = [MODEL_KEY];
  const newKey = () => {
    const key = `sk-${randomUUID().replace(/-/g, '')}`;
    keys.push(key);
    recordSecrets(key);
    return key;
  };
  const providers = (teamId = f.teamId) => `/api/v1/teams/${teamId}/providers`;
  const one = (id: string, teamId = f.teamId) => `${providers(teamId)}/custom/${id}`;
  const body = (extra: Record<string, unknown> = {}) => ({
    name: `Local ${randomUUID().slice(0, 8)}`,
    baseUrl: model.url,
    models: [
      { id: 'scripted:local', contextWindow: 32768, price: { input: 1, cacheHit: 0.1, output: 2 } },
      { id: 'Qwen/Qwen2.5-Coder-7B', contextWindow: 8192, maxOutput: 2048 },
    ],
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}): Promise<CustomProvider> => {
    const res = await f.admin.client.post(providers(), body(extra));
    if (res.status !== 201) throw new Error(`create provider: ${res.status} ${res.text}`);
    return res.body;
  };
  const keyRow = async (id: string) => (await sql<KeyRow>('SELECT ciphertext, iv, "authTag", "keyId" FROM "CustomProvider" WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    recordSecrets(MODEL_KEY);
    model = await startScriptedModelServer({ demo: false, apiKey: MODEL_KEY });
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'custom-providers');
    for (const p of [f.owner, f.admin, f.member, f.viewer, f.outsider]) log.watch(p.client);
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('should let an admin add, change and delete a provider that everyone in the team reads without its key', async () => {
    const key = newKey();
    const created = await f.admin.client.post(providers(), body({ name: '  Lab vLLM ', apiKey: key }));
    expect(created.status).toBe(201);
    const p = created.body as CustomProvider;
    expect(p).toEqual({
      id: expect.any(String), teamId: f.teamId, name: 'Lab vLLM', baseUrl: model.url, configured: true,
      models: [
        { id: 'scripted:local', contextWindow: 32768, price: { input: 1, cacheHit: 0.1, output: 2 } },
        { id: 'Qwen/Qwen2.5-Coder-7B', contextWindow: 8192, maxOutput: 2048 },
      ],
      createdById: f.admin.userId, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    for (const who of [f.viewer, f.member, f.owner]) {
      expect((await who.client.get(providers())).body.items).toEqual(expect.arrayContaining([p]));
      expect((await who.client.get(one(p.id))).body).toEqual(p);
    }

    const renamed = await f.owner.client.patch(one(p.id), { name: 'Lab', baseUrl: `${model.url}/`, models: [{ id: 'scripted:local', contextWindow: 16384 }] });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Lab', baseUrl: model.url, configured: true, models: [{ id: 'scripted:local', contextWindow: 16384 }] });
    // Without a key: a local server that needs none.
    const keyless = await f.admin.client.patch(one(p.id), { apiKey: null });
    expect(keyless.body.configured).toBe(false);
    expect(await keyRow(p.id)).toEqual({ ciphertext: null, iv: null, authTag: null, keyId: null });

    expect((await f.admin.client.delete(one(p.id))).status).toBe(204);
    expect((await f.viewer.client.get(one(p.id))).status).toBe(404);
    expect((await f.admin.client.delete(one(p.id))).status).toBe(404);
  });

  it('should keep only AES-GCM ciphertext bound to the team and provider, never the key', async () => {
    const key = newKey();
    const p = await create({ apiKey: key });
    const row = (await keyRow(p.id)) as { ciphertext: Buffer; iv: Buffer; authTag: Buffer; keyId: string };
    expect(row.iv).toHaveLength(12);
    expect(row.authTag).toHaveLength(16);
    const everything = Buffer.concat([row.ciphertext, row.iv, row.authTag, Buffer.from(row.keyId)]);
    expect(everything.includes(Buffer.from(key))).toBe(false);
    const box = stack.api.get(SecretBoxService);
    const secret = row;
    expect(box.open(secret, `provider:${f.teamId}:custom:${p.id}`)).toBe(key);
    expect(() => box.open(secret, `provider:${f.outsiderTeamId}:custom:${p.id}`)).toThrow();
  });

  it('should refuse viewers and members every change, and answer outsiders 404 for every route', async () => {
    const p = await create();
    for (const who of [f.viewer, f.member]) {
      const answers = [
        await who.client.post(providers(), body()),
        await who.client.patch(one(p.id), { name: 'mine now' }),
        await who.client.delete(one(p.id)),
        await who.client.post(`${one(p.id)}/models/fetch`),
      ];
      expect(answers.map((r) => [r.status, errorCode(r)])).toEqual(Array(4).fill([403, 'FORBIDDEN']));
    }
    const outsider = [
      await f.outsider.client.get(providers()),
      await f.outsider.client.post(providers(), body()),
      await f.outsider.client.get(one(p.id)),
      await f.outsider.client.patch(one(p.id), { name: 'x' }),
      await f.outsider.client.delete(one(p.id)),
      await f.outsider.client.post(`${one(p.id)}/models/fetch`),
    ];
    expect(outsider.map((r) => r.status)).toEqual(Array(6).fill(404));
    // The outsider's own team does not see it either, by id or in its list.
    expect((await f.outsider.client.get(one(p.id, f.outsiderTeamId))).status).toBe(404);
    expect((await f.outsider.client.get(providers(f.outsiderTeamId))).body.items).toEqual([]);
    expect((await f.viewer.client.get(one(p.id))).body.name).toBe(p.name);
  });

  it('should refuse base URLs that are not https to a public host unless the instance approved the host', async () => {
    const cases: [string, RegExp][] = [
      ['http://llm.example.org/v1', /Plain http is refused for llm\.example\.org/],
      ['https://10.0.0.7/v1', /10\.0\.0\.7 is on a private address/],
      ['https://169.254.169.254/v1', /link-local/],
      ['https://localhost:8000/v1', /localhost is on a loopback address/],
      ['https://user:pass@llm.example.org/v1', /must not carry a user name or password/],
      ['https://llm.example.org/v1?x=1', /query or fragment/],
      ['ftp://llm.example.org/v1', /not supported/],
    ];
    for (const [baseUrl, message] of cases) {
      const res = await f.admin.client.post(providers(), body({ baseUrl }));
      expect({ baseUrl, status: res.status, code: errorCode(res) }).toEqual({ baseUrl, status: 400, code: 'INVALID_PROVIDER_URL' });
      expect(res.body.error.message).toMatch(message);
    }
    const p = await create();
    const patched = await f.admin.client.patch(one(p.id), { baseUrl: 'http://192.168.1.20:8000/v1' });
    expect([patched.status, errorCode(patched)]).toEqual([400, 'INVALID_PROVIDER_URL']);
    expect((await f.viewer.client.get(one(p.id))).body.baseUrl).toBe(model.url);
  });

  it('should refuse bad model lists with a message naming the model', async () => {
    const dup = await f.admin.client.post(providers(), body({ models: [{ id: 'a', contextWindow: 4096 }, { id: 'a', contextWindow: 4096 }] }));
    expect([dup.status, errorCode(dup)]).toEqual([400, 'INVALID_PROVIDER_MODELS']);
    expect(dup.body.error.message).toMatch(/"a" is listed twice/);
    const beyond = await f.admin.client.post(providers(), body({ models: [{ id: 'b', contextWindow: 4096, maxOutput: 5000 }] }));
    expect([beyond.status, errorCode(beyond)]).toEqual([400, 'INVALID_PROVIDER_MODELS']);
    for (const models of [
      [{ id: 'c', contextWindow: 100 }],
      [{ id: 'c', contextWindow: 4096, maxOutput: null }],
      [{ id: 'c', contextWindow: 4096, price: { input: -1, output: 1 } }],
      [{ id: 'c', contextWindow: 4096, price: { input: 1 } }],
      [{ id: 'has space', contextWindow: 4096 }],
      [{ id: 'c', contextWindow: 4096, extra: true }],
    ]) {
      const res = await f.admin.client.post(providers(), body({ models }));
      expect({ models, status: res.status, code: errorCode(res) }).toEqual({ models, status: 400, code: 'VALIDATION_FAILED' });
    }
    const taken = await create();
    const again = await f.admin.client.post(providers(), body({ name: taken.name }));
    expect([again.status, errorCode(again)]).toEqual([409, 'CONFLICT']);
  });

  it("should fetch the provider's model list with its key, and say why when it cannot", async () => {
    model.load({ name: 'listed', turns: [{ text: 'x' }] });
    const p = await create({ apiKey: MODEL_KEY });
    const fetched = await f.admin.client.post(`${one(p.id)}/models/fetch`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.models).toEqual(expect.arrayContaining([{ id: 'scripted:listed', contextWindow: null }]));
    // Nothing was saved.
    expect((await f.viewer.client.get(one(p.id))).body.models).toEqual(p.models);

    const wrong = await create({ name: 'Wrong key', apiKey: newKey() });
    const refused = await f.admin.client.post(`${one(wrong.id)}/models/fetch`);
    expect([refused.status, errorCode(refused)]).toEqual([422, 'PROVIDER_MODELS_UNAVAILABLE']);
    expect(refused.body.error.message).toMatch(/^Provider "Wrong key": could not list its models at .*HTTP 401: the key was refused/);

    const down = await create({ name: 'Down', baseUrl: `http://127.0.0.1:${await freePort()}/v1` });
    const unreachable = await f.admin.client.post(`${one(down.id)}/models/fetch`);
    expect([unreachable.status, errorCode(unreachable)]).toEqual([422, 'PROVIDER_MODELS_UNAVAILABLE']);
    expect(unreachable.body.error.message).toMatch(/^Provider "Down": .*connection refused/);
  });

  it('should let sessions and presets choose a provider and one of its models, checked against its list', async () => {
    const p = await create();
    const sessions = `/api/v1/workspaces/${f.workspaceId}/sessions`;
    const chosen = await f.member.client.post(sessions, { providerId: p.id, model: 'Qwen/Qwen2.5-Coder-7B' });
    expect(chosen.status).toBe(201);
    expect(chosen.body).toMatchObject({ providerId: p.id, model: 'Qwen/Qwen2.5-Coder-7B' });
    // Without a model: the provider's first one.
    expect((await f.member.client.post(sessions, { providerId: p.id })).body).toMatchObject({ providerId: p.id, model: 'scripted:local' });
    const plain = await f.member.client.post(sessions, {});
    expect(plain.body).toMatchObject({ providerId: null, model: 'deepseek-v4-flash' });

    const unknown = await f.member.client.post(sessions, { providerId: p.id, model: 'deepseek-v4-flash' });
    expect([unknown.status, errorCode(unknown)]).toEqual([400, 'UNKNOWN_MODEL']);
    expect(unknown.body.error.message).toContain('Its models: scripted:local, Qwen/Qwen2.5-Coder-7B');
    const foreign = await f.member.client.post(sessions, { providerId: randomUUID(), model: 'x' });
    expect([foreign.status, errorCode(foreign)]).toEqual([404, 'UNKNOWN_PROVIDER']);

    // Switching a session: to the provider (its model checked), and back to DeepSeek.
    const switched = await f.member.client.patch(`/api/v1/sessions/${plain.body.id}`, { providerId: p.id, model: 'scripted:local' });
    expect(switched.body).toMatchObject({ providerId: p.id, model: 'scripted:local' });
    const mismatch = await f.member.client.patch(`/api/v1/sessions/${plain.body.id}`, { model: 'deepseek-v4-pro' });
    expect([mismatch.status, errorCode(mismatch)]).toEqual([400, 'UNKNOWN_MODEL']);
    const back = await f.member.client.patch(`/api/v1/sessions/${plain.body.id}`, { providerId: null, model: 'deepseek-v4-pro' });
    expect(back.body).toMatchObject({ providerId: null, model: 'deepseek-v4-pro' });

    const preset = await f.admin.client.post(`/api/v1/teams/${f.teamId}/model-presets`, { name: `local ${randomUUID()}`, providerId: p.id, model: 'scripted:local' });
    expect(preset.status).toBe(201);
    expect(preset.body).toMatchObject({ providerId: p.id, model: 'scripted:local' });
    const badPreset = await f.admin.client.post(`/api/v1/teams/${f.teamId}/model-presets`, { name: `bad ${randomUUID()}`, providerId: p.id, model: 'nope' });
    expect([badPreset.status, errorCode(badPreset)]).toEqual([400, 'UNKNOWN_MODEL']);

    // A provider a preset uses keeps the preset's model, and is not deleted while the preset names it.
    const dropModel = await f.admin.client.patch(one(p.id), { models: [{ id: 'Qwen/Qwen2.5-Coder-7B', contextWindow: 8192 }] });
    expect([dropModel.status, errorCode(dropModel)]).toEqual([409, 'CONFLICT']);
    const del = await f.admin.client.delete(one(p.id));
    expect([del.status, errorCode(del)]).toEqual([409, 'CONFLICT']);
    expect(del.body.error.message).toContain(preset.body.name);
    expect((await f.admin.client.delete(`/api/v1/teams/${f.teamId}/model-presets/${preset.body.id}`)).status).toBe(204);
    expect((await f.admin.client.delete(one(p.id))).status).toBe(204);
  });

  it('should write audit entries for adding, changing and deleting a provider, without the key', async () => {
    const key = newKey();
    const p = await create({ apiKey: key });
    expect((await f.admin.client.patch(one(p.id), { apiKey: newKey() })).status).toBe(200);
    expect((await f.admin.client.delete(one(p.id))).status).toBe(204);
    const audit = await f.owner.client.get(`/api/v1/teams/${f.teamId}/audit?limit=200`);
    const mine = audit.body.items.filter((e: { targetId: string }) => e.targetId === p.id);
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['custom_provider.delete', 'custom_provider.update', 'custom_provider.create']);
    expect(mine[2]).toEqual(expect.objectContaining({ actorUserId: f.admin.userId, targetType: 'custom_provider', ip: expect.any(String) }));
    expect(mine[1].metadata).toEqual({ changed: ['apiKey'], key: 'replaced' });
  });

  it('should never have returned a key in any response, nor answered with a 5xx', () => {
    expect(log.responses.length).toBeGreaterThan(40);
    expect(keys.flatMap((k) => log.containing(k))).toEqual([]);
    expect(log.responses.filter(({ res }) => res.status >= 500)).toEqual([]);
  });
});
