import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient, randomEmail, signedUpClient, TEST_PASSWORD } from '../../support/http-client';
import { errorCode, sql } from './team-fixture';

const MAX_ATTEMPTS = 3;

function setCookie(headers: Headers, name: string): string | undefined {
  return headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

describe('browser accounts: sign-up, login, logout, CSRF', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ env: { LOGIN_MAX_ATTEMPTS: String(MAX_ATTEMPTS) } });
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('sign-up', () => {
    it('should set an HttpOnly SameSite session cookie and a readable CSRF cookie when an account is created', async () => {
      const client = new HttpClient(stack.url);
      const email = randomEmail('signup');
      const res = await client.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: 'Ada' });

      expect(res.status).toBe(201);
      const session = setCookie(res.headers, 'h_session');
      const csrf = setCookie(res.headers, 'h_csrf');
      expect(session).toMatch(/;\s*HttpOnly/i);
      expect(session).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      expect(session).toMatch(/;\s*Path=\//i);
      expect(csrf).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      expect(csrf).not.toMatch(/HttpOnly/i);
      expect(client.cookies.get('h_session')).toEqual(expect.any(String));
      expect(client.cookies.get('h_csrf')).toEqual(expect.any(String));
    });

    it('should return the user without any password or hash when signing up', async () => {
      const client = new HttpClient(stack.url);
      const email = randomEmail('grace');
      const res = await client.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: 'Grace' });

      expect(res.body).toEqual({ user: { id: expect.any(String), email, name: 'Grace' } });
      expect(res.text).not.toContain(TEST_PASSWORD);
      // The stored hash is argon2id, never the password itself, and it is not in the answer.
      const [row] = await sql<{ passwordHash: string }>('SELECT "passwordHash" FROM "User" WHERE id = $1', [res.body.user.id]);
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      expect(res.text).not.toContain(row.passwordHash);
      expect(res.text).not.toContain('$argon2');
    });

    it('should answer 400 and create nothing when the name is blank or the password too short', async () => {
      for (const body of [
        { email: randomEmail('blank'), password: TEST_PASSWORD, name: '   ' },
        { email: randomEmail('short'), password: 'short', name: 'Shorty' },
      ]) {
        const res = await new HttpClient(stack.url).post('/api/v1/auth/signup', body);
        expect(res.status).toBe(400);
        expect(errorCode(res)).toBe('VALIDATION_FAILED');
        expect(await sql('SELECT id FROM "User" WHERE email = $1', [body.email])).toEqual([]);
      }
    });

    it('should not tell whether an email has an account: a taken email with another password gets SIGNUP_FAILED, never EMAIL_TAKEN', async () => {
      const { email } = await signedUpClient(stack.url, 'dupe');
      const again = await new HttpClient(stack.url).post('/api/v1/auth/signup', {
        email: email.toUpperCase(),
        password: 'another-password-123',
        name: 'Copy',
      });
      expect(again.status).toBe(400);
      expect(errorCode(again)).toBe('SIGNUP_FAILED');
      expect(again.text).not.toMatch(/taken|exists|in use|registered/i);
      expect(setCookie(again.headers, 'h_session')).toBeUndefined();
      expect(await sql('SELECT id FROM "User" WHERE email = $1', [email])).toHaveLength(1);
    });

    it('should sign in, creating nothing, when a taken email comes with its own password', async () => {
      const { email, userId } = await signedUpClient(stack.url, 'twice');
      const client = new HttpClient(stack.url);
      const again = await client.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: 'Twice' });
      expect(again.status).toBe(201);
      expect(again.body).toEqual({ user: { id: userId, email, name: 'twice' } });
      expect((await client.get('/api/v1/me')).body.user.id).toBe(userId);
    });
  });

  describe('login and logout', () => {
    it('should sign in with the right password, whatever the email letter case', async () => {
      const { email, userId } = await signedUpClient(stack.url, 'login');
      const client = new HttpClient(stack.url);
      const res = await client.post('/api/v1/auth/login', { email: email.toUpperCase(), password: TEST_PASSWORD });

      expect(res.status).toBe(200);
      expect(res.body.user).toEqual({ id: userId, email, name: 'login' });
      expect(setCookie(res.headers, 'h_session')).toMatch(/HttpOnly/i);
      expect((await client.get('/api/v1/me')).body.user.id).toBe(userId);
    });

    it('should answer 401 INVALID_CREDENTIALS and set no cookie when the password is wrong', async () => {
      const { email } = await signedUpClient(stack.url, 'wrongpw');
      const client = new HttpClient(stack.url);
      const res = await client.post('/api/v1/auth/login', { email, password: 'not-the-password' });

      expect(res.status).toBe(401);
      expect(errorCode(res)).toBe('INVALID_CREDENTIALS');
      expect(client.cookies.size).toBe(0);
      expect((await client.get('/api/v1/me')).status).toBe(401);
    });

    it('should give the same answer for an unknown email as for a wrong password', async () => {
      const res = await new HttpClient(stack.url).post('/api/v1/auth/login', { email: randomEmail('ghost'), password: TEST_PASSWORD });
      expect(res.status).toBe(401);
      expect(errorCode(res)).toBe('INVALID_CREDENTIALS');
    });

    it('should end the session on logout so the old cookie gets 401 afterwards', async () => {
      const { client } = await signedUpClient(stack.url, 'logout');
      const oldCookies = new Map(client.cookies);
      expect((await client.get('/api/v1/me')).status).toBe(200);

      const out = await client.post('/api/v1/auth/logout');
      expect(out.status).toBe(204);
      expect(client.cookies.has('h_session')).toBe(false);

      // A copy of the cookie taken before logout (a stolen one, say) is dead too.
      const replay = new HttpClient(stack.url);
      for (const [k, v] of oldCookies) replay.cookies.set(k, v);
      const me = await replay.get('/api/v1/me');
      expect(me.status).toBe(401);
      expect(errorCode(me)).toBe('UNAUTHENTICATED');
    });

    it('should describe the signed-in user and their teams on /me', async () => {
      const { client, userId, email } = await signedUpClient(stack.url, 'me');
      const team = await client.post('/api/v1/teams', { name: 'Me team' });
      const me = await client.get('/api/v1/me');

      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        user: { id: userId, email, name: 'me' },
        teams: [{ id: team.body.id, name: 'Me team', slug: expect.any(String), role: 'owner' }],
        via: 'user',
        instanceAdmin: false,
      });
    });

    it('should answer 401 once the session has expired', async () => {
      const { client, userId } = await signedUpClient(stack.url, 'expiring');
      expect((await client.get('/api/v1/me')).status).toBe(200);
      // SESSION_TTL_HOURS passes: move the expiry into the past instead of waiting.
      await sql(`UPDATE "AuthSession" SET "expiresAt" = now() - interval '1 second' WHERE "userId" = $1`, [userId]);
      const res = await client.get('/api/v1/me');
      expect(res.status).toBe(401);
      expect(errorCode(res)).toBe('UNAUTHENTICATED');
    });

    it('should keep only a hash of the session cookie in the database', async () => {
      const { client, userId } = await signedUpClient(stack.url, 'hashed');
      const rows = await sql<Record<string, unknown>>('SELECT * FROM "AuthSession" WHERE "userId" = $1', [userId]);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows[0])).not.toContain(client.cookies.get('h_session'));
    });

    it('should answer 401 on /me without a session', async () => {
      const res = await new HttpClient(stack.url).get('/api/v1/me');
      expect(res.status).toBe(401);
      expect(errorCode(res)).toBe('UNAUTHENTICATED');
    });
  });

  describe('CSRF', () => {
    async function teamNames(client: HttpClient): Promise<string[]> {
      return (await client.get('/api/v1/teams')).body.items.map((t: { name: string }) => t.name);
    }

    it('should refuse a cookie-authenticated write without x-csrf-token and write nothing', async () => {
      const { client } = await signedUpClient(stack.url, 'nocsrf');
      client.sendCsrf = false;
      const res = await client.post('/api/v1/teams', { name: 'Forged team' });

      expect(res.status).toBe(403);
      expect(errorCode(res)).toBe('CSRF_FAILED');
      expect(await teamNames(client)).toEqual([]);
    });

    it('should refuse a cookie-authenticated write with a wrong x-csrf-token and write nothing', async () => {
      const { client } = await signedUpClient(stack.url, 'badcsrf');
      const other = await signedUpClient(stack.url, 'othercsrf');
      client.sendCsrf = false;
      // Another session's valid token does not count either: the token is bound to the session.
      for (const wrong of ['wrong-token', other.client.cookies.get('h_csrf') ?? 'missing', '']) {
        const res = await client.request('POST', '/api/v1/teams', { name: 'Forged team' }, { 'x-csrf-token': wrong });
        expect({ wrong, status: res.status }).toEqual({ wrong, status: 403 });
        expect(errorCode(res)).toBe('CSRF_FAILED');
      }
      expect(await teamNames(client)).toEqual([]);
    });

    it('should refuse logout without the CSRF token, leaving the session alive', async () => {
      const { client } = await signedUpClient(stack.url, 'csrflogout');
      client.sendCsrf = false;
      const res = await client.post('/api/v1/auth/logout');
      expect(res.status).toBe(403);
      expect(errorCode(res)).toBe('CSRF_FAILED');
      expect((await client.get('/api/v1/me')).status).toBe(200);
    });

    it('should accept the write when the CSRF cookie is echoed, like the web app does', async () => {
      const { client } = await signedUpClient(stack.url, 'goodcsrf');
      const res = await client.post('/api/v1/teams', { name: 'Real team' });
      expect(res.status).toBe(201);
      expect(await teamNames(client)).toEqual(['Real team']);
    });
  });

  describe('deployment settings', () => {
    it('should mark cookies Secure and refuse sign-up when H is configured so', async () => {
      const { email } = await signedUpClient(stack.url, 'secure');
      const locked = await startStack({ env: { H_SECURE_COOKIES: 'true', SIGNUP_POLICY: 'closed' } });
      try {
        const signup = await new HttpClient(locked.url).post('/api/v1/auth/signup', { email: randomEmail('late'), password: TEST_PASSWORD, name: 'Late' });
        expect(signup.status).toBe(403);
        expect(errorCode(signup)).toBe('SIGNUP_DISABLED');

        const login = await new HttpClient(locked.url).post('/api/v1/auth/login', { email, password: TEST_PASSWORD });
        expect(login.status).toBe(200);
        expect(setCookie(login.headers, 'h_session')).toMatch(/;\s*Secure/i);
        expect(setCookie(login.headers, 'h_csrf')).toMatch(/;\s*Secure/i);
      } finally {
        await locked.close();
      }
    });
  });

  describe('login rate limiting', () => {
    it(`should answer 429 RATE_LIMITED with Retry-After after ${MAX_ATTEMPTS} failed logins, even with the right password`, async () => {
      const { email } = await signedUpClient(stack.url, 'limited');
      const client = new HttpClient(stack.url);
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        const res = await client.post('/api/v1/auth/login', { email, password: `wrong-password-${i}` });
        expect(res.status).toBe(401);
      }
      const blocked = await client.post('/api/v1/auth/login', { email, password: TEST_PASSWORD });
      expect(blocked.status).toBe(429);
      expect(errorCode(blocked)).toBe('RATE_LIMITED');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(client.cookies.size).toBe(0);
    });

    it('should count parallel guesses too: only the allowed number get an answer, the rest get 429', async () => {
      const { email } = await signedUpClient(stack.url, 'parallel');
      // Its own client address (the api trusts X-Forwarded-For from loopback, as behind a proxy).
      const from = { 'x-forwarded-for': '198.51.100.7' };
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => new HttpClient(stack.url).request('POST', '/api/v1/auth/login', { email, password: `guess-${i}` }, from)),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_ATTEMPTS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - MAX_ATTEMPTS);
    });

    it('should limit one address across many accounts, without counting successful logins', async () => {
      const from = { 'x-forwarded-for': '198.51.100.9' };
      const { email } = await signedUpClient(stack.url, 'office');
      for (let i = 0; i < MAX_ATTEMPTS * 5 + 3; i++) {
        const ok = await new HttpClient(stack.url).request('POST', '/api/v1/auth/login', { email, password: TEST_PASSWORD }, from);
        expect(ok.status).toBe(200);
      }
      for (let i = 0; i < MAX_ATTEMPTS * 5; i++) {
        const res = await new HttpClient(stack.url).request('POST', '/api/v1/auth/login', { email: randomEmail('spray'), password: 'spray-123456' }, from);
        expect(res.status).toBe(401);
      }
      const blocked = await new HttpClient(stack.url).request('POST', '/api/v1/auth/login', { email, password: TEST_PASSWORD }, from);
      expect(blocked.status).toBe(429);
      expect(errorCode(blocked)).toBe('RATE_LIMITED');
    });

    it('should still let another account sign in from the same address while one is blocked', async () => {
      const victim = await signedUpClient(stack.url, 'blocked');
      const bystander = await signedUpClient(stack.url, 'bystander');
      const client = new HttpClient(stack.url);
      for (let i = 0; i < MAX_ATTEMPTS; i++) await client.post('/api/v1/auth/login', { email: victim.email, password: 'wrong-password' });
      expect((await client.post('/api/v1/auth/login', { email: victim.email, password: TEST_PASSWORD })).status).toBe(429);

      const ok = await new HttpClient(stack.url).post('/api/v1/auth/login', { email: bystander.email, password: TEST_PASSWORD });
      expect(ok.status).toBe(200);
      expect(ok.body.user.id).toBe(bystander.userId);
    });
  });
});
