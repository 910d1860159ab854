import { Injectable } from '@nestjs/common';
import { TeamRepository, TeamRoleName } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, lowerRole, Principal, roleAtLeast, scopeCeiling } from './principal';
import { ResourceResolverRegistry } from './resource-resolver.registry';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class AccessService {
  constructor(
    private readonly teams: TeamRepository,
    private readonly resolvers: ResourceResolverRegistry,
  ) {}

  /** The caller's effective role in a team, or null when they are not a member. */
  async effectiveRole(principal: Principal, teamId: string): Promise<TeamRoleName | null> {
    if (principal.kind === 'token' && principal.teamId !== teamId) return null;
    const role = await this.teams.findRole(teamId, principal.userId);
    if (!role) return null;
    return principal.kind === 'token' ? lowerRole(role, scopeCeiling(principal.scopes)) : role;
  }

  async check(principal: Principal, resource: string, id: string | undefined, minRole: TeamRoleName): Promise<AccessGrant> {
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
