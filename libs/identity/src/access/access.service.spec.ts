import type { TeamRepository, TeamRoleName } from '@h/db';
import { AccessService } from './access.service';
import type { Principal, TokenPrincipal } from './principal';
import { ResourceResolverRegistry } from './resource-resolver.registry';
import { refusal } from '../testing/identity-test-kit';

const TEAM = '11111111-1111-4111-8111-111111111111';
const OTHER_TEAM = '22222222-2222-4222-8222-222222222222';
const WS_A = '33333333-3333-4333-8333-333333333333';
const WS_B = '44444444-4444-4444-8444-444444444444';
const USER = 'user-1';

function setup(roles: Record<string, TeamRoleName>, instanceAdmins: string[] = []) {
  const teams = { findRole: async (teamId: string, userId: string) => roles[`${teamId}/${userId}`] ?? null } as unknown as TeamRepository;
  const registry = new ResourceResolverRegistry();
  const looked: string[] = [];
  registry.register('workspace', async (id) => {
    looked.push(id);
    return id === WS_A || id === WS_B ? { teamId: TEAM, workspaceId: id } : null;
  });
  registry.register('team', async (id) => (id === TEAM || id === OTHER_TEAM ? { teamId: id, workspaceId: null } : null));
  return { access: new AccessService(teams, registry, { findById: async (id: string) => ({ id, isInstanceAdmin: instanceAdmins.includes(id) }) } as never), looked };
}

const user: Principal = { kind: 'user', userId: USER, sessionId: 's', csrfToken: 'c' };
const token = (over: Partial<TokenPrincipal> = {}): TokenPrincipal => ({
  kind: 'token',
  userId: USER,
  tokenId: 't',
  teamId: TEAM,
  workspaceId: null,
  scopes: ['read', 'write'],
  ...over,
});


describe(AccessService.name, () => {
  it('should let an instance admin through and refuse others with INSTANCE_ADMIN_ONLY when a route is for instance admins', async () => {
    await expect(setup({}, [USER]).access.requireInstanceAdmin(user)).resolves.toBeUndefined();
    const err = await refusal(setup({}).access.requireInstanceAdmin(user));
    expect([err.status, err.code]).toEqual([403, 'INSTANCE_ADMIN_ONLY']);
  });

  it("should refuse an instance admin's API token with TOKEN_NOT_ALLOWED when a route is for instance admins", async () => {
    const err = await refusal(setup({}, [USER]).access.requireInstanceAdmin(token({ scopes: ['admin'] })));
    expect([err.status, err.code]).toEqual([403, 'TOKEN_NOT_ALLOWED']);
  });

  it('should grant a member their own role on a resource of their team', async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'admin' });
    await expect(access.check(user, 'workspace', WS_A, 'member')).resolves.toEqual({ teamId: TEAM, workspaceId: WS_A, role: 'admin' });
  });

  it('should answer 404, not 403, to someone outside the team so the resource is not revealed', async () => {
    const { access } = setup({});
    const err = await refusal(access.check(user, 'workspace', WS_A, 'viewer'));
    expect(err.status).toBe(404);
    expect(err.message).toBe('Workspace not found.');
  });

  it('should answer 404 for an id that is not a UUID without asking the resolver', async () => {
    const { access, looked } = setup({ [`${TEAM}/${USER}`]: 'owner' });
    expect((await refusal(access.check(user, 'workspace', "1' OR 1=1", 'viewer'))).status).toBe(404);
    expect((await refusal(access.check(user, 'workspace', undefined, 'viewer'))).status).toBe(404);
    expect(looked).toEqual([]);
  });

  it('should refuse a role below the minimum and name both roles', async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'viewer' });
    const err = await refusal(access.check(user, 'workspace', WS_A, 'member'));
    expect(err.status).toBe(403);
    expect(err.message).toContain('needs the member role');
    expect(err.message).toContain('you are viewer');
  });

  it("should cap a token at its scopes even when its creator is the team's owner", async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'owner' });
    const readOnly = token({ scopes: ['read'] });
    await expect(access.effectiveRole(readOnly, TEAM)).resolves.toBe('viewer');
    // A route that asks members for no more than read (none does today) still meets the role cap.
    const err = await refusal(access.check(readOnly, 'workspace', WS_A, 'member', 'read'));
    expect(err.status).toBe(403);
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('this API token acts as viewer');
    await expect(access.effectiveRole(token({ scopes: ['read', 'write', 'admin'] }), TEAM)).resolves.toBe('admin');
  });

  it("should cap a token at its creator's current role", async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'member' });
    await expect(access.effectiveRole(token({ scopes: ['admin'] }), TEAM)).resolves.toBe('member');
  });

  it('should give a token no role in a team other than its own, even if its creator is a member there', async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'owner', [`${OTHER_TEAM}/${USER}`]: 'owner' });
    await expect(access.effectiveRole(token(), OTHER_TEAM)).resolves.toBeNull();
    expect((await refusal(access.check(token(), 'team', OTHER_TEAM, 'viewer'))).status).toBe(404);
  });

  it('should hide other workspaces from a workspace-bound token and refuse it team-wide routes', async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'owner' });
    const bound = token({ workspaceId: WS_A });
    await expect(access.check(bound, 'workspace', WS_A, 'member')).resolves.toMatchObject({ workspaceId: WS_A });
    expect((await refusal(access.check(bound, 'workspace', WS_B, 'viewer'))).status).toBe(404);
    const teamWide = await refusal(access.check(bound, 'team', TEAM, 'viewer'));
    expect(teamWide.status).toBe(403);
    expect(teamWide.code).toBe('TOKEN_WORKSPACE_BOUND');
  });

  it('should refuse a token without the route scope (derived from the role unless given) before looking the resource up', async () => {
    const { access, looked } = setup({ [`${TEAM}/${USER}`]: 'owner' });
    const err = await refusal(access.check(token({ scopes: ['run'] }), 'workspace', WS_A, 'member'));
    expect({ status: err.status, code: err.code }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(err.message).toContain('the write scope');
    expect(looked).toEqual([]);
    await expect(access.check(token({ scopes: ['run'] }), 'workspace', WS_A, 'member', 'run')).resolves.toMatchObject({ role: 'member' });
  });

  it('should limit a browser session by its role alone, whatever scope the route names', async () => {
    const { access } = setup({ [`${TEAM}/${USER}`]: 'member' });
    await expect(access.check(user, 'workspace', WS_A, 'member', 'admin')).resolves.toMatchObject({ role: 'member' });
  });
});
