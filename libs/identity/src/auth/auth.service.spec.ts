import { createHash } from 'node:crypto';
import { AppConfig, parseEnv } from '@h/config';
import type { ApiTokenRecord, ApiTokenRepository, AuthSessionRepository, RateLimitRepository, UserRecord, UserRepository } from '@h/db';
import type { AppException } from '@h/http';
import type { InvitationService } from '../invitations/invitation.service';
import { newApiToken } from '../tokens/token-format';
import { AuthService } from './auth.service';
import type { PasswordService } from './password.service';
import { recordingAudit, refusal } from '../testing/identity-test-kit';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const meta = { ip: '203.0.113.7', userAgent: 'jest' };

// Fakes with the repositories' contracts; the rate limiter is the fixed-window counter of
// RateLimitRepository (hit counts first and answers the new count).
function setup(env: Record<string, string> = {}) {
  const config = new AppConfig(parseEnv({ NODE_ENV: 'test', LOGIN_MAX_ATTEMPTS: '3', ...env }));
  const accounts = new Map<string, UserRecord & { passwordHash: string }>();
  const sessions: { userId: string; tokenHash: string; csrfToken: string }[] = [];
  const apiTokens: (ApiTokenRecord & { secretHash: string })[] = [];
  const used: string[] = [];
  const counters = new Map<string, number>();
  const recorder = recordingAudit();
  const audit = recorder.entries;
  let verified = 0;
  const users = {
    anyExists: async () => accounts.size > 0,
    findByEmail: async (email: string) => accounts.get(email) ?? null,
    findCredentials: async (email: string) => accounts.get(email) ?? null,
    updatePasswordHash: async () => undefined,
    createAccount: async (input: { email: string; name: string; passwordHash: string }, options: { onlyIfFirst: boolean }) => {
      if (options.onlyIfFirst && accounts.size > 0) return { refused: 'not_first' as const };
      const user = { id: `u${accounts.size + 1}`, email: input.email, name: input.name, isInstanceAdmin: accounts.size === 0, createdAt: new Date() };
      accounts.set(input.email, { ...user, passwordHash: input.passwordHash });
      return { user, joined: null };
    },
  } as unknown as UserRepository;
  const authSessions = {
    create: async (s: { userId: string; tokenHash: string; csrfToken: string }) => void sessions.push(s),
    findActiveByTokenHash: async (hash: string) => {
      const s = sessions.find((x) => x.tokenHash === hash);
      return s ? { id: `sess-${s.tokenHash.slice(0, 6)}`, userId: s.userId, csrfToken: s.csrfToken } : null;
    },
  } as unknown as AuthSessionRepository;
  const tokens = {
    findByPrefix: async (prefix: string) => apiTokens.find((t) => t.prefix === prefix) ?? null,
    markUsed: async (id: string) => void used.push(id),
  } as unknown as ApiTokenRepository;
  const passwords = {
    hash: async (pw: string) => `hashed:${pw}`,
    verify: async (hash: string | null, pw: string) => {
      verified++;
      // A turn of the event loop, as argon2 takes, so parallel attempts interleave.
      await new Promise((r) => setImmediate(r));
      return hash === `hashed:${pw}`;
    },
    needsRehash: () => false,
  } as unknown as PasswordService;
  const rateLimits = {
    hit: async (bucket: string) => {
      const count = (counters.get(bucket) ?? 0) + 1;
      counters.set(bucket, count);
      return { count, retryAfterSeconds: 600 };
    },
    reset: async (bucket: string) => void counters.delete(bucket),
    release: async (bucket: string) => void counters.set(bucket, Math.max(0, (counters.get(bucket) ?? 0) - 1)),
  } as unknown as RateLimitRepository;
  const invitations = { assertUsable: async () => undefined, recordJoin: async () => undefined } as unknown as InvitationService;
  const service = new AuthService(config, users, authSessions, tokens, passwords, rateLimits, invitations, recorder.service);
  const addToken = (over: Partial<ApiTokenRecord> = {}) => {
    const { prefix, token } = newApiToken();
    const row = {
      id: `tok-${apiTokens.length + 1}`, teamId: 'team-1', createdById: 'u1', name: 'ci', prefix, scopes: ['read'], workspaceId: null,
      expiresAt: null, lastUsedAt: null, revokedAt: null, createdAt: new Date(), secretHash: sha256(token), ...over,
    };
    apiTokens.push(row);
    return { token, row };
  };
  return { service, accounts, sessions, used, audit, addToken, verifications: () => verified };
}


describe(AuthService.name, () => {
  describe('signupAvailability', () => {
    it.each(['invite', 'closed'] as const)('should offer sign-up to the first person under the %s policy, then what the policy allows', async (policy) => {
      const t = setup({ SIGNUP_POLICY: policy });
      await expect(t.service.signupAvailability()).resolves.toBe('open');
      await t.service.signup({ email: 'first@x.org', password: 'first-password', name: 'First' }, meta);
      await expect(t.service.signupAvailability()).resolves.toBe(policy);
    });

    it('should stay open under the open policy once accounts exist', async () => {
      const t = setup({ SIGNUP_POLICY: 'open' });
      await t.service.signup({ email: 'first@x.org', password: 'first-password', name: 'First' }, meta);
      await expect(t.service.signupAvailability()).resolves.toBe('open');
    });
  });

  describe('authenticate', () => {
    it('should turn a live API token into a principal acting for its creator, and note its use', async () => {
      const t = setup();
      const { token, row } = t.addToken({ workspaceId: 'ws-1', scopes: ['read', 'write'] });
      await expect(t.service.authenticate({ bearer: token })).resolves.toEqual({
        kind: 'token', userId: 'u1', tokenId: row.id, teamId: 'team-1', workspaceId: 'ws-1', scopes: ['read', 'write'],
      });
      expect(t.used).toEqual([row.id]);
    });

    it('should refuse a token whose secret is wrong though its prefix is right', async () => {
      const t = setup();
      const { token } = t.addToken();
      const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      await expect(t.service.authenticate({ bearer: forged })).resolves.toBeNull();
      expect(t.used).toEqual([]);
    });

    it('should refuse revoked, expired and malformed tokens', async () => {
      const t = setup();
      const revoked = t.addToken({ revokedAt: new Date() });
      const expired = t.addToken({ expiresAt: new Date(Date.now() - 1000) });
      await expect(t.service.authenticate({ bearer: revoked.token })).resolves.toBeNull();
      await expect(t.service.authenticate({ bearer: expired.token })).resolves.toBeNull();
      await expect(t.service.authenticate({ bearer: 'Bearer nonsense' })).resolves.toBeNull();
      expect(t.used).toEqual([]);
    });

    it('should find a cookie session by the hash of its token only', async () => {
      const t = setup();
      const issued = await t.service.signup({ email: 'a@x.org', password: 'pw-123456789', name: 'A' }, meta);
      expect(t.sessions[0].tokenHash).toBe(sha256(issued.sessionToken));
      await expect(t.service.authenticate({ sessionToken: issued.sessionToken })).resolves.toMatchObject({ kind: 'user', userId: issued.user.id, csrfToken: issued.csrfToken });
      await expect(t.service.authenticate({ sessionToken: sha256(issued.sessionToken) })).resolves.toBeNull();
      await expect(t.service.authenticate({})).resolves.toBeNull();
    });
  });

  describe('login', () => {
    it('should give the same 401 for a wrong password and an unknown email, and audit which it was', async () => {
      const t = setup();
      await t.service.signup({ email: 'a@x.org', password: 'right-password', name: 'A' }, meta);
      const wrong = await refusal(t.service.login({ email: 'a@x.org', password: 'wrong-password' }, meta));
      const unknown = await refusal(t.service.login({ email: 'b@x.org', password: 'right-password' }, meta));
      expect([wrong.status, wrong.code, wrong.message]).toEqual([401, 'INVALID_CREDENTIALS', unknown.message]);
      expect(unknown.code).toBe('INVALID_CREDENTIALS');
      const failed = t.audit.filter((e) => e.action === 'auth.login_failed');
      expect(failed.map((e) => e.metadata)).toEqual([{ reason: 'bad_password' }, { reason: 'unknown_email' }]);
      expect(failed.every((e) => e.actorUserId === null)).toBe(true);
    });

    it('should match the email whatever its case and spaces', async () => {
      const t = setup();
      await t.service.signup({ email: '  Ann@Example.ORG ', password: 'right-password', name: ' Ann ' }, meta);
      expect([...t.accounts.keys()]).toEqual(['ann@example.org']);
      await expect(t.service.login({ email: 'ANN@example.org', password: 'right-password' }, meta)).resolves.toMatchObject({ user: { name: 'Ann' } });
    });

    it('should lock out further guesses, even the right password, after LOGIN_MAX_ATTEMPTS failures', async () => {
      const t = setup();
      await t.service.signup({ email: 'a@x.org', password: 'right-password', name: 'A' }, meta);
      for (let i = 0; i < 3; i++) await refusal(t.service.login({ email: 'a@x.org', password: `guess-${i}` }, meta));
      const locked = await refusal(t.service.login({ email: 'a@x.org', password: 'right-password' }, meta));
      expect(locked.status).toBe(429);
      expect(locked.headers['Retry-After']).toBe('600');
    });

    it('should count parallel guesses before checking them, so no more than the limit are tried', async () => {
      const t = setup();
      await t.service.signup({ email: 'a@x.org', password: 'right-password', name: 'A' }, meta);
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => t.service.login({ email: 'a@x.org', password: `guess-${i}` }, meta)),
      );
      expect(t.verifications()).toBe(3);
      expect(results.filter((r) => r.status === 'rejected' && (r.reason as AppException).status === 429)).toHaveLength(9);
    });

    it('should forget earlier failures after a successful login', async () => {
      const t = setup();
      await t.service.signup({ email: 'a@x.org', password: 'right-password', name: 'A' }, meta);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 2; i++) await refusal(t.service.login({ email: 'a@x.org', password: `guess-${i}` }, meta));
        await expect(t.service.login({ email: 'a@x.org', password: 'right-password' }, meta)).resolves.toMatchObject({ user: { email: 'a@x.org' } });
      }
    });
  });

  describe('signup', () => {
    it('should make the first account the instance admin whatever the policy', async () => {
      const t = setup({ SIGNUP_POLICY: 'closed' });
      await expect(t.service.signup({ email: 'first@x.org', password: 'pw-123456789', name: 'F' }, meta)).resolves.toMatchObject({ user: { isInstanceAdmin: true } });
      const closed = await refusal(t.service.signup({ email: 'second@x.org', password: 'pw-123456789', name: 'S' }, meta));
      expect([closed.status, closed.code]).toEqual([403, 'SIGNUP_DISABLED']);
    });

    it('should ask for an invitation when sign-up is invite-only', async () => {
      const t = setup({ SIGNUP_POLICY: 'invite' });
      await t.service.signup({ email: 'first@x.org', password: 'pw-123456789', name: 'F' }, meta);
      expect((await refusal(t.service.signup({ email: 'second@x.org', password: 'pw-123456789', name: 'S' }, meta))).code).toBe('SIGNUP_INVITE_ONLY');
      expect(t.accounts.size).toBe(1);
    });

    it('should not tell whether an email has an account: a taken email with another password fails like any other refusal', async () => {
      const t = setup({ SIGNUP_POLICY: 'open' });
      await t.service.signup({ email: 'a@x.org', password: 'right-password', name: 'A' }, meta);
      const err = await refusal(t.service.signup({ email: 'a@x.org', password: 'other-password', name: 'Mallory' }, meta));
      expect([err.status, err.code]).toEqual([400, 'SIGNUP_FAILED']);
      expect(t.accounts.get('a@x.org')?.name).toBe('A');
    });

    it('should sign in, not duplicate, someone who signs up again with their own password', async () => {
      const t = setup({ SIGNUP_POLICY: 'open' });
      const first = await t.service.signup({ email: 'a@x.org', password: 'right-password', name: 'A' }, meta);
      const again = await t.service.signup({ email: 'A@x.org', password: 'right-password', name: 'A2' }, meta);
      expect(again.user.id).toBe(first.user.id);
      expect(again.sessionToken).not.toBe(first.sessionToken);
      expect(t.accounts.size).toBe(1);
    });

    it('should limit sign-ups per network: one IPv6 /64 counts as one address', async () => {
      const t = setup({ SIGNUP_POLICY: 'open', SIGNUP_MAX_ATTEMPTS: '2' });
      const from = (ip: string) => ({ ...meta, ip });
      await t.service.signup({ email: 'a@x.org', password: 'pw-123456789', name: 'A' }, from('2001:db8:1:2::1'));
      await t.service.signup({ email: 'b@x.org', password: 'pw-123456789', name: 'B' }, from('2001:db8:1:2:ffff::9'));
      expect((await refusal(t.service.signup({ email: 'c@x.org', password: 'pw-123456789', name: 'C' }, from('2001:db8:1:2::abcd')))).status).toBe(429);
      await t.service.signup({ email: 'd@x.org', password: 'pw-123456789', name: 'D' }, from('2001:db8:1:3::1'));
      expect([...t.accounts.keys()]).toEqual(['a@x.org', 'b@x.org', 'd@x.org']);
    });
  });

  describe('logout', () => {
    it('should do nothing for an API token, which has no session to end', async () => {
      const t = setup();
      await t.service.logout({ kind: 'token', userId: 'u1', tokenId: 't', teamId: 'team', workspaceId: null, scopes: [] }, meta);
      expect(t.audit).toEqual([]);
    });
  });
});
