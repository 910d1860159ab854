import type { AuditRepository, MemberRecord, TeamRepository, TeamRoleName } from '@h/db';
import type { AccessGrant, Principal } from '../access/principal';
import { TeamService } from './team.service';
import { recordingAudit, refusal } from '../testing/identity-test-kit';

const TEAM = 'team-1';
const me: Principal = { kind: 'user', userId: 'me', sessionId: 's', csrfToken: 'c' };
const grant = (role: TeamRoleName): AccessGrant => ({ teamId: TEAM, workspaceId: null, role });

// An in-memory team with the repository's contract: `authorize` sees the member's current role
// and may throw; the last owner can be neither demoted nor removed.
function setup(members: Record<string, TeamRoleName>, takenSlugs: string[] = []) {
  const recorder = recordingAudit();
  const audit = recorder.entries;
  const created: { name: string; slug: string }[] = [];
  const teams = {
    slugExists: async (slug: string) => takenSlugs.includes(slug),
    createWithOwner: async (input: { name: string; slug: string; ownerId: string }) => {
      created.push(input);
      return { id: TEAM, name: input.name, slug: input.slug, createdAt: new Date(), role: 'owner' as const };
    },
    changeMember: async (_teamId: string, userId: string, change: { role: TeamRoleName } | { remove: true }, authorize: (r: TeamRoleName) => void) => {
      const current = members[userId];
      if (!current) return { refused: 'not_found' as const };
      authorize(current);
      const owners = Object.values(members).filter((r) => r === 'owner').length;
      const staysOwner = 'role' in change && change.role === 'owner';
      if (current === 'owner' && !staysOwner && owners <= 1) return { refused: 'last_owner' as const };
      if ('remove' in change) {
        delete members[userId];
        return { from: current, member: null };
      }
      members[userId] = change.role;
      const member: MemberRecord = { userId, email: `${userId}@x`, name: userId, role: change.role, createdAt: new Date() };
      return { from: current, member };
    },
  } as unknown as TeamRepository;
  const service = new TeamService(teams, {} as AuditRepository, recorder.service);
  return { service, members, audit, created };
}


describe(TeamService.name, () => {
  describe('updateMember', () => {
    it('should let an admin change a member below owner and record from and to', async () => {
      const t = setup({ me: 'admin', bob: 'viewer' });
      await expect(t.service.updateMember(me, grant('admin'), 'bob', 'member', null)).resolves.toMatchObject({ userId: 'bob', role: 'member' });
      expect(t.members.bob).toBe('member');
      expect(t.audit).toEqual([expect.objectContaining({ action: 'member.role_change', targetId: 'bob', metadata: { from: 'viewer', to: 'member' } })]);
    });

    it('should refuse an admin making someone owner, or changing an owner', async () => {
      const t = setup({ me: 'admin', bob: 'member', olga: 'owner' });
      expect((await refusal(t.service.updateMember(me, grant('admin'), 'bob', 'owner', null))).status).toBe(403);
      expect((await refusal(t.service.updateMember(me, grant('admin'), 'olga', 'viewer', null))).status).toBe(403);
      expect(t.members).toEqual({ me: 'admin', bob: 'member', olga: 'owner' });
      expect(t.audit).toEqual([]);
    });

    it('should refuse a member managing anyone', async () => {
      const t = setup({ me: 'member', bob: 'viewer' });
      expect((await refusal(t.service.updateMember(me, grant('member'), 'bob', 'viewer', null))).status).toBe(403);
    });

    it('should refuse to demote the last owner with a conflict that says what to do', async () => {
      const t = setup({ me: 'owner', bob: 'member' });
      const err = await refusal(t.service.updateMember(me, grant('owner'), 'me', 'admin', null));
      expect(err.status).toBe(409);
      expect(err.code).toBe('LAST_OWNER');
      expect(t.members.me).toBe('owner');
    });

    it('should let an owner hand over ownership and then step down', async () => {
      const t = setup({ me: 'owner', bob: 'member' });
      await t.service.updateMember(me, grant('owner'), 'bob', 'owner', null);
      await t.service.updateMember(me, grant('owner'), 'me', 'admin', null);
      expect(t.members).toEqual({ me: 'admin', bob: 'owner' });
    });

    it('should answer 404 for someone who is not in the team', async () => {
      const t = setup({ me: 'owner' });
      expect((await refusal(t.service.updateMember(me, grant('owner'), 'nobody', 'member', null))).status).toBe(404);
    });
  });

  describe('removeMember', () => {
    it('should let a viewer leave the team', async () => {
      const t = setup({ me: 'viewer', olga: 'owner' });
      await t.service.removeMember(me, grant('viewer'), 'me', null);
      expect(t.members).toEqual({ olga: 'owner' });
      expect(t.audit).toEqual([expect.objectContaining({ action: 'member.remove', actorUserId: 'me', targetId: 'me' })]);
    });

    it('should refuse a member removing someone else', async () => {
      const t = setup({ me: 'member', bob: 'viewer', olga: 'owner' });
      expect((await refusal(t.service.removeMember(me, grant('member'), 'bob', null))).status).toBe(403);
      expect(t.members.bob).toBe('viewer');
    });

    it('should refuse the last owner leaving', async () => {
      const t = setup({ me: 'owner', bob: 'admin' });
      expect((await refusal(t.service.removeMember(me, grant('owner'), 'me', null))).code).toBe('LAST_OWNER');
    });
  });

  describe('create', () => {
    it('should derive the slug from the name and make it unique when taken', async () => {
      const t = setup({}, ['platform-team']);
      await t.service.create(me, '  Platform Team ', null);
      await t.service.create(me, 'Équipe Ünited', null);
      await t.service.create(me, '我们的团队', null);
      expect(t.created[0].name).toBe('Platform Team');
      expect(t.created[0].slug).toMatch(/^platform-team-[a-z0-9x]+$/);
      expect(t.created[1].slug).toBe('equipe-united');
      expect(t.created[2].slug).toBe('team');
      expect(t.audit.map((e) => e.action)).toEqual(['team.create', 'team.create', 'team.create']);
    });
  });
});
