import { randomUUID } from 'node:crypto';
import { ProviderKeyService } from '@h/providers';
import { startStack, TestStack } from '../../support/api-harness';
import { recordSecrets } from '../security/secret-registry';
import { errorCode, ResponseLog, sql, TeamFixture, teamWithRoles } from './team-fixture';

interface CredentialRow {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
  keyId: string;
}

describe('team provider keys', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const log = new ResponseLog();
  // Every key this file ever sends; none may come back in any response.
  const keys: string[] = [];
  const newKey = () => {
    const key = `sk-${randomUUID().replace(/-/g, '')}`;
    keys.push(key);
    recordSecrets(key);
    return key;
  };
  const providerPath = (provider = 'deepseek', teamId = f.teamId) => `/api/v1/teams/${teamId}/providers/${provider}`;
  const credential = (teamId = f.teamId) =>
    sql<CredentialRow>('SELECT ciphertext, iv, "authTag", "keyId" FROM "ProviderCredential" WHERE "teamId" = $1 AND provider = $2', [
      teamId,
      'deepseek',
    ]);

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'providers');
    for (const p of [f.owner, f.admin, f.member, f.viewer, f.outsider]) log.watch(p.client);
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should store, report and delete a key, saying only whether one is set', async () => {
    const before = await f.viewer.client.get(providerPath());
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ provider: 'deepseek', configured: false, updatedAt: null });

    const key = newKey();
    const set = await f.admin.client.put(providerPath(), { apiKey: key });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ provider: 'deepseek', configured: true, updatedAt: expect.any(String) });

    for (const who of [f.viewer, f.member, f.owner]) {
      const got = await who.client.get(providerPath());
      expect(got.body).toEqual({ provider: 'deepseek', configured: true, updatedAt: set.body.updatedAt });
    }

    const del = await f.owner.client.delete(providerPath());
    expect(del.status).toBe(204);
    expect((await f.viewer.client.get(providerPath())).body).toEqual({ provider: 'deepseek', configured: false, updatedAt: null });
    expect(await credential()).toEqual([]);

    const again = await f.owner.client.delete(providerPath());
    expect(again.status).toBe(404);
  });

  it('should keep only AES-GCM ciphertext in Postgres, never the key', async () => {
    const key = newKey();
    expect((await f.owner.client.put(providerPath(), { apiKey: key })).status).toBe(200);
    const [row] = await credential();

    expect(row.iv).toHaveLength(12);
    expect(row.authTag).toHaveLength(16);
    expect(row.ciphertext).toHaveLength(Buffer.byteLength(key));
    expect(row.ciphertext.equals(Buffer.from(key))).toBe(false);
    const everything = Buffer.concat([row.ciphertext, row.iv, row.authTag, Buffer.from(row.keyId)]);
    expect(everything.includes(Buffer.from(key))).toBe(false);
    expect(everything.toString('latin1')).not.toContain(key.slice(3, 15));
    // ...and it is the key, sealed: the worker's path opens it with the master key.
    expect(await stack.api.get(ProviderKeyService).reveal(f.teamId, 'deepseek')).toBe(key);

    // Setting the same key twice gives a fresh IV, so equal keys never look equal at rest.
    expect((await f.owner.client.put(providerPath(), { apiKey: key })).status).toBe(200);
    const [second] = await credential();
    expect(second.iv.equals(row.iv)).toBe(false);
    expect(second.ciphertext.equals(row.ciphertext)).toBe(false);
  });

  it('should answer 403 when a viewer or member tries to set or delete the key, and leave it unchanged', async () => {
    expect((await f.owner.client.put(providerPath(), { apiKey: newKey() })).status).toBe(200);
    const [before] = await credential();
    for (const who of [f.viewer, f.member]) {
      const put = await who.client.put(providerPath(), { apiKey: newKey() });
      const del = await who.client.delete(providerPath());
      expect([put.status, del.status]).toEqual([403, 403]);
      expect([errorCode(put), errorCode(del)]).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    }
    const [after] = await credential();
    expect(after.ciphertext.equals(before.ciphertext)).toBe(true);
  });

  it("should answer 404 to an outsider for every verb on another team's key", async () => {
    for (const res of [
      await f.outsider.client.get(providerPath()),
      await f.outsider.client.put(providerPath(), { apiKey: newKey() }),
      await f.outsider.client.delete(providerPath()),
    ]) {
      expect(res.status).toBe(404);
      expect(errorCode(res)).toBe('NOT_FOUND');
    }
  });

  it('should answer 404 UNKNOWN_PROVIDER for a provider H does not support', async () => {
    for (const res of [
      await f.owner.client.get(providerPath('openai-nope')),
      await f.owner.client.put(providerPath('openai-nope'), { apiKey: newKey() }),
      await f.owner.client.delete(providerPath('openai-nope')),
    ]) {
      expect(res.status).toBe(404);
      expect(errorCode(res)).toBe('UNKNOWN_PROVIDER');
    }
  });

  it('should keep one team key out of another team', async () => {
    expect((await f.outsider.client.get(providerPath('deepseek', f.outsiderTeamId))).body.configured).toBe(false);
  });

  it('should write provider.set and provider.delete audit entries naming the actor', async () => {
    const { client } = f.admin;
    expect((await client.put(providerPath(), { apiKey: newKey() })).status).toBe(200);
    expect((await client.delete(providerPath())).status).toBe(204);
    const audit = await f.owner.client.get(`/api/v1/teams/${f.teamId}/audit?limit=200`);
    const mine = audit.body.items.filter((e: { actorUserId: string }) => e.actorUserId === f.admin.userId);
    expect(mine.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'provider.delete', targetType: 'provider', targetId: 'deepseek', ip: expect.any(String) }),
      expect.objectContaining({ action: 'provider.set', targetType: 'provider', targetId: 'deepseek', ip: expect.any(String) }),
    ]);
  });

  it('should never have returned a key in any response body or header, nor answered with a 5xx', () => {
    expect(keys.length).toBeGreaterThan(5);
    expect(log.responses.length).toBeGreaterThan(20);
    expect(keys.flatMap((k) => log.containing(k))).toEqual([]);
    expect(log.responses.filter(({ res }) => res.status >= 500)).toEqual([]);
  });
});
