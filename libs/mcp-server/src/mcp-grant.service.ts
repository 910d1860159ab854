import { Injectable } from '@nestjs/common';
import type { TokenScope } from '@h/contracts';
import { WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessService, type Principal, type TokenPrincipal } from '@h/identity';
import type { TeamRoleName } from '@h/db';

/** Who an MCP request acts for, and on which workspace: established once per HTTP request. */
export interface McpGrant {
  principal: TokenPrincipal;
  teamId: string;
  workspaceId: string;
  /** The creator's role in the team, lowered to what the token's scopes allow. */
  role: TeamRoleName;
}

/**
 * The MCP endpoint's rule on tokens: only an API token bound to one workspace of its own team, whose
 * creator is still a member, may use it (the tools need one workspace to act on, and a team-wide
 * token would have to guess). Revoked or expired tokens never get here (the auth guard answers 401).
 */
@Injectable()
export class McpGrantService {
  constructor(
    private readonly access: AccessService,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async grant(principal: Principal): Promise<McpGrant> {
    if (principal.kind !== 'token') {
      throw AppException.forbidden('The MCP endpoint takes an API token bound to a workspace ("Authorization: Bearer <token>"), not a browser session: create one under Team → API tokens with "Only <workspace>".', 'TOKEN_NOT_WORKSPACE_BOUND');
    }
    const workspaceId = principal.workspaceId;
    if (!workspaceId) {
      throw AppException.forbidden('This API token is not bound to a workspace, so the MCP tools would not know which workspace to act on: create a token for one workspace ("Only <workspace>").', 'TOKEN_NOT_WORKSPACE_BOUND');
    }
    // Token creation refuses another team's workspace; a row written past it is refused here too.
    const owner = await this.workspaces.findTeamId(workspaceId);
    if (owner && owner !== principal.teamId) {
      throw AppException.forbidden("This API token's workspace belongs to another team than the token.", 'FORBIDDEN');
    }
    const grant = await this.access.check(principal, 'workspace', workspaceId, 'viewer', 'read');
    return { principal, teamId: grant.teamId, workspaceId, role: grant.role };
  }

  /** Refuses a tool call the token may not make: `write` also needs the member role (as the file API's writes). */
  async requireForTool(grant: McpGrant, scope: TokenScope): Promise<void> {
    if (scope === 'read') return;
    await this.access.check(grant.principal, 'workspace', grant.workspaceId, 'member', scope);
  }
}
