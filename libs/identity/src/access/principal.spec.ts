import { TOKEN_SCOPES } from '@h/contracts';
import type { TeamRoleName } from '@h/db';
import { AppException } from '@h/http';
import { defaultScopeFor, requireScope, scopeCeiling, scopeIncludes, type TokenPrincipal, type TokenScope, type UserPrincipal } from './principal';

const token = (scopes: string[]): TokenPrincipal => ({ kind: 'token', userId: 'u', tokenId: 't', teamId: 'team', workspaceId: null, scopes });
const user: UserPrincipal = { kind: 'user', userId: 'u', sessionId: 's', csrfToken: 'c' };

function refusalOf(fn: () => void): AppException | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof AppException) return err;
    throw err;
  }
}

describe('token scopes', () => {
  it('should order the scopes read < run < write < admin', () => {
    expect(TOKEN_SCOPES).toEqual(['read', 'run', 'write', 'admin']);
  });

  it.each<[TokenScope, TokenScope[]]>([
    ['read', ['read']],
    ['run', ['read', 'run']],
    ['write', ['read', 'run', 'write']],
    ['admin', ['read', 'run', 'write', 'admin']],
  ])('should let a %s token do exactly what needs %j', (granted, allowed) => {
    expect(TOKEN_SCOPES.filter((needed) => scopeIncludes([granted], needed))).toEqual(allowed);
  });

  it('should use the highest scope of a list and ignore names it does not know', () => {
    expect(scopeIncludes(['read', 'write'], 'run')).toBe(true);
    expect(scopeIncludes(['read', 'superuser'], 'run')).toBe(false);
    expect(scopeIncludes([], 'read')).toBe(false);
  });

  it('should cap a token at viewer for read, member for run and write, admin for admin', () => {
    expect([['read'], ['run'], ['write'], ['admin'], ['read', 'run']].map(scopeCeiling)).toEqual(['viewer', 'member', 'member', 'admin', 'member']);
  });

  it('should derive a route scope from its minimum role when the route names none', () => {
    const roles: TeamRoleName[] = ['viewer', 'member', 'admin', 'owner'];
    expect(roles.map(defaultScopeFor)).toEqual(['read', 'write', 'admin', 'admin']);
  });

  it('should refuse a token below the scope with 403 INSUFFICIENT_SCOPE naming the scope, and let an including one through', () => {
    const err = refusalOf(() => requireScope(token(['read']), 'run'));
    expect({ status: err?.status, code: err?.code }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(err?.message).toContain('the run scope');
    expect(err?.message).toContain('this token has read');
    expect(refusalOf(() => requireScope(token(['write']), 'run'))).toBeNull();
    expect(refusalOf(() => requireScope(token(['run']), 'run'))).toBeNull();
  });

  it('should not ask browser sessions for any scope', () => {
    expect(refusalOf(() => requireScope(user, 'admin'))).toBeNull();
  });
});
