import { Injectable } from '@nestjs/common';
import { TeamRepository, TeamRoleName, UserRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, defaultScopeFor, lowerRole, Principal, requireScope, roleAtLeast, scopeCeiling, type TokenScope } from './principal';
import { ResourceResolverRegistry } from './resource-resolver.registry';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class AccessService {
  constructor(
    private readonly teams: TeamRepository,
    private readonly resolvers: ResourceResolverRegistry,
    private readonly users: UserRepository,
  ) {}

  /** Refuses anyone but an instance admin in a browser session (see @InstanceAdmin). */
  async requireInstanceAdmin(principal: Principal): Promise<void> {
    if (principal.kind === 'token') throw AppException.forbidden('API tokens cannot use the instance admin pages; sign in in the browser.', 'TOKEN_NOT_ALLOWED');
    const user = await this.users.findById(principal.userId);
    if (!user?.isInstanceAdmin) throw AppException.forbidden("Only the instance's admins may use this.", 'INSTANCE_ADMIN_ONLY');
  }

  /** The caller's effective role in a team, or null when they are not a member. */
  async effectiveRole(principal: Principal, teamId: string): Promise<TeamRoleName | null> {
    if (principal.kind === 'token' && principal.teamId !== teamId) return null;
    const role = await this.teams.findRole(teamId, principal.userId);
    if (!role) return null;
    return principal.kind === 'token' ? lowerRole(role, scopeCeiling(principal.scopes)) : role;
  }

  /**
   * The caller's grant on the team owning `resource` `id`, refused (see @Access) when the caller
   * is not a member, is below `minRole`, or is a token without `scope`. Socket handlers call this
   * too, so their actions obey the same scopes as HTTP routes.
   */
  async check(
    principal: Principal,
    resource: string,
    id: string | undefined,
    minRole: TeamRoleName,
    scope: TokenScope = defaultScopeFor(minRole),
  ): Promise<AccessGrant> {
    // First: the scope is the route's, so refusing it reveals nothing about the resource.
    requireScope(principal, scope);
    const label = resource.charAt(0).toUpperCase() + resource.slice(1);
    if (!id || !UUID.test(id)) throw AppException.notFound(label);
    const owner = await this.resolvers.get(resource)(id);
    if (!owner) throw AppException.notFound(label);
    const role = await this.effectiveRole(principal, owner.teamId);
    if (!role) throw AppException.notFound(label);
    if (principal.kind === 'token' && principal.workspaceId && principal.workspaceId !== owner.workspaceId) {
      // A workspace-bound token sees nothing outside its workspace, not even that it exists.
      if (owner.workspaceId) throw AppException.notFound(label);
      throw AppException.forbidden(
        'This API token is bound to one workspace and cannot use team-wide routes.',
        'TOKEN_WORKSPACE_BOUND',
      );
    }
    if (!roleAtLeast(role, minRole)) {
      const how = principal.kind === 'token' ? 'this API token acts as' : 'you are';
      throw AppException.forbidden(`This needs the ${minRole} role or higher in the team; ${how} ${role}.`);
    }
    return { teamId: owner.teamId, workspaceId: owner.workspaceId, role };
  }
}
