import { createHash } from 'node:crypto';
import type { ApiTokenRecord, ApiTokenRepository, TeamRoleName, WorkspaceRepository } from '@h/db';
import type { AccessGrant, Principal } from '../access/principal';
import { parseApiToken } from './token-format';
import { TokenService } from './token.service';
import { recordingAudit, refusal } from '../testing/identity-test-kit';

const TEAM = 'team-1';
const me: Principal = { kind: 'user', userId: 'me', sessionId: 's', csrfToken: 'c' };
const grant = (role: TeamRoleName): AccessGrant => ({ teamId: TEAM, workspaceId: null, role });

function setup(workspaceTeams: Record<string, string> = {}) {
  const rows: (ApiTokenRecord & { secretHash: string })[] = [];
  const recorder = recordingAudit();
  const audit = recorder.entries;
  const tokens = {
    create: async (input: Omit<ApiTokenRecord, 'id' | 'lastUsedAt' | 'revokedAt' | 'createdAt'> & { secretHash: string }) => {
      const row = { ...input, id: `tok-${rows.length + 1}`, lastUsedAt: null, revokedAt: null, createdAt: new Date() };
      rows.push(row);
      const { secretHash: _s, ...record } = row;
      return record;
    },
    findInTeam: async (teamId: string, id: string) => rows.find((r) => r.teamId === teamId && r.id === id) ?? null,
    revoke: async (id: string) => {
      const row = rows.find((r) => r.id === id);
      if (row) row.revokedAt = new Date();
    },
  } as unknown as ApiTokenRepository;
  const workspaces = { findTeamId: async (id: string) => workspaceTeams[id] ?? null } as unknown as WorkspaceRepository;
  return { service: new TokenService(tokens, workspaces, recorder.service), rows, audit };
}


describe(TokenService.name, () => {
  describe('create', () => {
    it('should return the secret once and store only its hash', async () => {
      const t = setup();
      const created = await t.service.create(me, grant('member'), { name: ' ci ' }, null);
      expect(parseApiToken(created.secret)).toEqual({ prefix: created.token.prefix });
      expect(created.token).not.toHaveProperty('secretHash');
      expect(t.rows[0].secretHash).toBe(createHash('sha256').update(created.secret).digest('hex'));
      expect(JSON.stringify(t.rows)).not.toContain(created.secret);
      expect(t.rows[0]).toMatchObject({ name: 'ci', scopes: ['read', 'write'], createdById: 'me', teamId: TEAM, expiresAt: null });
      expect(JSON.stringify(t.audit)).not.toContain(created.secret);
    });

    it('should refuse scopes above the creator’s role', async () => {
      const t = setup();
      expect((await refusal(t.service.create(me, grant('viewer'), { name: 'x', scopes: ['write'] }, null))).status).toBe(403);
      expect((await refusal(t.service.create(me, grant('member'), { name: 'x', scopes: ['read', 'admin'] }, null))).status).toBe(403);
      await expect(t.service.create(me, grant('viewer'), { name: 'x', scopes: ['read', 'read'] }, null)).resolves.toMatchObject({
        token: { scopes: ['read'] },
      });
      expect(t.rows).toHaveLength(1);
    });

    it('should answer 404 for a workspace of another team', async () => {
      const t = setup({ 'ws-mine': TEAM, 'ws-theirs': 'team-2' });
      expect((await refusal(t.service.create(me, grant('owner'), { name: 'x', workspaceId: 'ws-theirs' }, null))).status).toBe(404);
      await expect(t.service.create(me, grant('owner'), { name: 'x', workspaceId: 'ws-mine' }, null)).resolves.toMatchObject({
        token: { workspaceId: 'ws-mine' },
      });
    });

    it('should set the expiry the given number of days ahead', async () => {
      const t = setup();
      const before = Date.now();
      const { token } = await t.service.create(me, grant('member'), { name: 'x', expiresInDays: 30 }, null);
      const days = ((token.expiresAt?.getTime() ?? 0) - before) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(30);
      expect(days).toBeLessThan(30.01);
    });
  });

  describe('revoke', () => {
    it('should let its creator revoke it, and answer 404 the second time', async () => {
      const t = setup();
      const { token } = await t.service.create(me, grant('member'), { name: 'x' }, null);
      await t.service.revoke(me, grant('member'), token.id, null);
      expect(t.rows[0].revokedAt).toBeInstanceOf(Date);
      expect((await refusal(t.service.revoke(me, grant('member'), token.id, null))).status).toBe(404);
      expect(t.audit.map((e) => e.action)).toEqual(['token.create', 'token.revoke']);
    });

    it("should refuse a member revoking someone else's token but let an admin", async () => {
      const t = setup();
      const bob: Principal = { kind: 'user', userId: 'bob', sessionId: 's2', csrfToken: 'c2' };
      const { token } = await t.service.create(bob, grant('member'), { name: 'bob-ci' }, null);
      expect((await refusal(t.service.revoke(me, grant('member'), token.id, null))).status).toBe(403);
      expect(t.rows[0].revokedAt).toBeNull();
      await t.service.revoke(me, grant('admin'), token.id, null);
      expect(t.rows[0].revokedAt).toBeInstanceOf(Date);
    });

    it('should answer 404 for a token of another team', async () => {
      const t = setup();
      const { token } = await t.service.create(me, grant('owner'), { name: 'x' }, null);
      const elsewhere: AccessGrant = { teamId: 'team-2', workspaceId: null, role: 'owner' };
      expect((await refusal(t.service.revoke(me, elsewhere, token.id, null))).status).toBe(404);
      expect(t.rows[0].revokedAt).toBeNull();
    });
  });
});
