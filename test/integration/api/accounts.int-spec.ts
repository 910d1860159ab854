import { randomUUID } from 'node:crypto';
import { AppConfig, parseEnv } from '@h/config';
import { RateLimitRepository, RedisService } from '@h/db';
import { startStack, TestStack } from '../../support/api-harness';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { HttpClient, HttpResponse, randomEmail, signedUpClient, TEST_PASSWORD } from '../../support/http-client';
import { TEST_REDIS_URL } from '../../support/test-env';
import { createTeam, errorCode, invite, Person, sql } from './team-fixture';

const signup = (url: string, body: Record<string, unknown>, from?: string): Promise<HttpResponse> =>
  new HttpClient(url).request('POST', '/api/v1/auth/signup', { password: TEST_PASSWORD, name: 'Newcomer', ...body }, from ? { 'x-forwarded-for': from } : {});
const login = (url: string, email: string, password: string, from: string): Promise<HttpResponse> =>
  new HttpClient(url).request('POST', '/api/v1/auth/login', { email, password }, { 'x-forwarded-for': from });

// Issue 8, point 6: who may create an account, the first account, what answers reveal, and the
// limits on sign-up and login. Invitations and membership are in invitations.int-spec.ts.
describe('accounts: sign-up policy, first account, rate limits', () => {
  let open: TestStack;
  let owner: Person;
  let teamId: string;

  beforeAll(async () => {
    open = await startStack();
    owner = await signedUpClient(open.url, 'policy-owner');
    teamId = await createTeam(owner, 'policy team');
  });

  afterAll(async () => {
    await open?.close();
  });

  describe('sign-up policy', () => {
    let inviteOnly: TestStack;
    let closed: TestStack;

    beforeAll(async () => {
      [inviteOnly, closed] = await Promise.all([startStack({ env: { SIGNUP_POLICY: 'invite' } }), startStack({ env: { SIGNUP_POLICY: 'closed' } })]);
    });

    afterAll(async () => {
      await Promise.all([inviteOnly?.close(), closed?.close()]);
    });

    it('should refuse sign-up without an invitation under the invite policy, with one answer whether the email is taken or not', async () => {
      const taken = await signup(inviteOnly.url, { email: owner.email, password: 'some-other-password' });
      const fresh = await signup(inviteOnly.url, { email: randomEmail('no-invite'), password: 'some-other-password' });
      expect([taken.status, fresh.status]).toEqual([403, 403]);
      expect(errorCode(fresh)).toBe('SIGNUP_INVITE_ONLY');
      expect(taken.text).toBe(fresh.text);
    });

    it('should let an invitation holder sign up under the invite policy and land in the team with its role', async () => {
      const token = await invite(owner, teamId, { role: 'member' });
      const email = randomEmail('invited');
      const client = new HttpClient(inviteOnly.url);
      const res = await client.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: 'Invited', invitationToken: token });
      expect(res.status).toBe(201);
      expect(res.body.joined).toEqual({ teamId, role: 'member' });
      const me = await client.get('/api/v1/me');
      expect(me.body.teams).toEqual([expect.objectContaining({ id: teamId, role: 'member' })]);
      // Single use: the same link signs nobody else up.
      const second = await signup(inviteOnly.url, { email: randomEmail('second'), invitationToken: token });
      expect(second.status).toBe(404);
      expect(errorCode(second)).toBe('INVITATION_INVALID');
    });

    it('should create no account when the invitation is unknown, revoked or for another email', async () => {
      const revoked = await owner.client.post(`/api/v1/teams/${teamId}/members`, { role: 'viewer' });
      await owner.client.delete(`/api/v1/teams/${teamId}/invitations/${revoked.body.invitation.id}`);
      const forGrace = await invite(owner, teamId, { role: 'viewer', email: 'grace-only@example.test' });
      const cases = [
        { token: 'x'.repeat(43), code: 'INVITATION_INVALID', status: 404 },
        { token: revoked.body.token as string, code: 'INVITATION_INVALID', status: 404 },
        { token: forGrace, code: 'INVITATION_EMAIL_MISMATCH', status: 403 },
      ];
      for (const c of cases) {
        const email = randomEmail('refused');
        const res = await signup(inviteOnly.url, { email, invitationToken: c.token });
        expect({ status: res.status, code: errorCode(res) }).toEqual({ status: c.status, code: c.code });
        expect(await sql('SELECT id FROM "User" WHERE email = $1', [email])).toEqual([]);
      }
      const grace = await signup(inviteOnly.url, { email: 'GRACE-ONLY@example.test', invitationToken: forGrace });
      expect(grace.status).toBe(201);
    });

    it('should tell the sign-up page what a person without an invitation may do, before they fill it in', async () => {
      const options = async (url: string) => (await new HttpClient(url).get('/api/v1/auth/signup')).body;
      expect(await options(open.url)).toEqual({ signup: 'open' });
      expect(await options(inviteOnly.url)).toEqual({ signup: 'invite' });
      expect(await options(closed.url)).toEqual({ signup: 'closed' });
    });

    it('should refuse every sign-up when closed, invitation or not', async () => {
      const token = await invite(owner, teamId, { role: 'viewer' });
      for (const body of [{ email: randomEmail('closed') }, { email: randomEmail('closed'), invitationToken: token }]) {
        const res = await signup(closed.url, body);
        expect(res.status).toBe(403);
        expect(errorCode(res)).toBe('SIGNUP_DISABLED');
      }
    });
  });

  describe('the first account of a fresh instance', () => {
    it.each(['invite', 'open'])('should make exactly one of several parallel first sign-ups the instance admin (policy %s)', async (policy) => {
      const db = await createIsolatedDatabase('first');
      const stack = await startStack({ env: { DATABASE_URL: db.url, SIGNUP_POLICY: policy } });
      try {
        // A fresh instance offers sign-up to its first person whatever the policy.
        expect((await new HttpClient(stack.url).get('/api/v1/auth/signup')).body).toEqual({ signup: 'open' });
        const clients = Array.from({ length: 5 }, () => new HttpClient(stack.url));
        const answers = await Promise.all(
          clients.map((c, i) => c.post('/api/v1/auth/signup', { email: randomEmail(`first-${i}`), password: TEST_PASSWORD, name: `First ${i}` })),
        );
        const created = answers.map((r, i) => ({ r, c: clients[i] })).filter(({ r }) => r.status === 201);
        expect(created).toHaveLength(policy === 'open' ? 5 : 1);
        if (policy === 'invite') expect(answers.filter((r) => r.status === 403).map(errorCode)).toEqual(Array(4).fill('SIGNUP_INVITE_ONLY'));
        const admins = await Promise.all(created.map(async ({ c }) => (await c.get('/api/v1/me')).body.instanceAdmin));
        expect(admins.filter(Boolean)).toHaveLength(1);
        const rows = await sqlAt(db.url, 'SELECT count(*)::int AS n FROM "User" WHERE "isInstanceAdmin"');
        expect(rows[0].n).toBe(1);
      } finally {
        await stack.close();
        await db.drop();
      }
    });
  });

  describe('rate limits', () => {
    let limited: TestStack;

    beforeAll(async () => {
      limited = await startStack({ env: { SIGNUP_MAX_ATTEMPTS: '3', LOGIN_MAX_ATTEMPTS: '3', LOGIN_ACCOUNT_MAX_ATTEMPTS: '5' } });
    });

    afterAll(async () => {
      await limited?.close();
    });

    it('should limit sign-ups per address, counting an IPv6 /64 as one address', async () => {
      for (const [from, other] of [
        ['198.51.100.30', '198.51.100.31'],
        ['2001:db8:77:1::1', '2001:db8:77:2::1'],
      ]) {
        const sameNetwork = from.includes(':') ? ['2001:db8:77:1::2', '2001:db8:77:1:ffff::3', '2001:db8:77:1::4'] : [from, from, from];
        for (const address of sameNetwork) expect((await signup(limited.url, { email: randomEmail('limited') }, address)).status).toBe(201);
        const email = randomEmail('one-too-many');
        const blocked = await signup(limited.url, { email }, from);
        expect(blocked.status).toBe(429);
        expect(errorCode(blocked)).toBe('RATE_LIMITED');
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await sql('SELECT id FROM "User" WHERE email = $1', [email])).toEqual([]);
        expect((await signup(limited.url, { email: randomEmail('elsewhere') }, other)).status).toBe(201);
      }
    });

    it('should limit failed logins per account whatever the address they come from', async () => {
      const victim = await signedUpClient(open.url, 'spread-victim');
      for (let i = 1; i <= 5; i++) expect((await login(limited.url, victim.email, `wrong-${i}`, `203.0.113.${i}`)).status).toBe(401);
      const blocked = await login(limited.url, victim.email, TEST_PASSWORD, '203.0.113.50');
      expect(blocked.status).toBe(429);
      expect(errorCode(blocked)).toBe('RATE_LIMITED');
      // Other accounts from those addresses are not affected.
      const bystander = await signedUpClient(open.url, 'spread-bystander');
      expect((await login(limited.url, bystander.email, TEST_PASSWORD, '203.0.113.1')).status).toBe(200);
    });

    it('should count every address of an IPv6 /64 as one address for an account', async () => {
      const victim = await signedUpClient(open.url, 'v6-victim');
      for (const from of ['2001:db8:99:1::1', '2001:db8:99:1::2', '2001:db8:99:1:a::3']) {
        expect((await login(limited.url, victim.email, 'wrong-password', from)).status).toBe(401);
      }
      expect((await login(limited.url, victim.email, TEST_PASSWORD, '2001:db8:99:1::4')).status).toBe(429);
      expect((await login(limited.url, victim.email, TEST_PASSWORD, '2001:db8:99:2::1')).status).toBe(200);
    });
  });

  describe('the rate limiter', () => {
    let redis: RedisService;

    beforeAll(() => {
      redis = new RedisService(new AppConfig(parseEnv({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `h-test-limiter-${randomUUID().slice(0, 8)}` })));
    });

    afterAll(async () => {
      await redis.onModuleDestroy();
    });

    it('should never leave a counter without expiry, even when Redis fails after the first command', async () => {
      // A client whose every call after the first fails, as if the process died or the connection
      // dropped mid-way: the count and its expiry must have been set together.
      let calls = 0;
      const flaky = new Proxy(redis.client, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (typeof value !== 'function' || ['key', 'constructor'].includes(String(prop))) return value;
          return (...args: unknown[]) => {
            calls++;
            if (calls > 1) throw new Error('connection lost');
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      const limiter = new RateLimitRepository({ client: flaky, prefix: redis.prefix, key: redis.key.bind(redis) } as unknown as RedisService);
      await limiter.hit('flaky-bucket', 900).catch(() => undefined);
      const key = redis.key('ratelimit', 'flaky-bucket');
      expect(await redis.client.get(key)).toBe('1');
      const ttl = await redis.client.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(900);
    });

    it('should count parallel hits exactly and give counts back without going below zero', async () => {
      const limiter = new RateLimitRepository(redis);
      const states = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('parallel-bucket', 60)));
      expect(states.map((s) => s.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(states.every((s) => s.retryAfterSeconds > 0 && s.retryAfterSeconds <= 60)).toBe(true);
      await Promise.all(Array.from({ length: 60 }, () => limiter.release('parallel-bucket')));
      expect((await limiter.peek('parallel-bucket')).count).toBe(0);
      expect(await redis.client.exists(redis.key('ratelimit', 'parallel-bucket'))).toBe(0);
    });
  });
});

async function sqlAt(url: string, text: string): Promise<{ n: number }[]> {
  const { Client } = await import('pg');
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(text)).rows;
  } finally {
    await db.end();
  }
}
