import type { TeamRepository, TeamRoleName, UserRepository } from '@h/db';
import { AccessService } from '../access/access.service';
import type { Principal, TokenPrincipal } from '../access/principal';
import { ResourceResolverRegistry } from '../access/resource-resolver.registry';
import { MeService } from './me.service';

const teamsOfAnn: { id: string; name: string; slug: string; role: TeamRoleName; createdAt: Date }[] = [
  { id: 't-1', name: 'One', slug: 'one', role: 'owner', createdAt: new Date() },
  { id: 't-2', name: 'Two', slug: 'two', role: 'member', createdAt: new Date() },
];

function service(): MeService {
  const users = {
    findById: async (id: string) => (id === 'ann' ? { id, email: 'ann@x.org', name: 'Ann', isInstanceAdmin: false, createdAt: new Date() } : null),
  } as unknown as UserRepository;
  const teams = {
    listForUser: async () => teamsOfAnn.map((t) => ({ ...t })),
    findRole: async (teamId: string) => teamsOfAnn.find((t) => t.id === teamId)?.role ?? null,
  } as unknown as TeamRepository;
  return new MeService(users, teams, new AccessService(teams, new ResourceResolverRegistry(), users));
}

const token = (scopes: string[]): TokenPrincipal => ({ kind: 'token', userId: 'ann', tokenId: 'tok', teamId: 't-1', workspaceId: null, scopes });

describe(MeService.name, () => {
  it("should list every team of a signed-in user with the user's own role", async () => {
    const me = await service().describe({ kind: 'user', userId: 'ann', sessionId: 's', csrfToken: 'c' });
    expect(me).toEqual({
      user: { id: 'ann', email: 'ann@x.org', name: 'Ann' },
      teams: [
        { id: 't-1', name: 'One', slug: 'one', role: 'owner' },
        { id: 't-2', name: 'Two', slug: 'two', role: 'member' },
      ],
      via: 'user',
      instanceAdmin: false,
    });
  });

  it('should show a token only its own team, at the role its scopes allow', async () => {
    await expect(service().describe(token(['read']))).resolves.toMatchObject({ teams: [{ id: 't-1', role: 'viewer' }], via: 'token' });
    await expect(service().describe(token(['read', 'write', 'admin']))).resolves.toMatchObject({ teams: [{ id: 't-1', role: 'admin' }] });
  });

  it('should answer 401 once the account is gone', async () => {
    const gone: Principal = { kind: 'user', userId: 'deleted', sessionId: 's', csrfToken: 'c' };
    await expect(service().describe(gone)).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
