import { Injectable } from '@nestjs/common';
import { TeamRepository, UserRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessService } from '../access/access.service';
import { isTokenScope, type Principal } from '../access/principal';
import type { MeResponseDto } from './auth.dto';

@Injectable()
export class MeService {
  constructor(
    private readonly users: UserRepository,
    private readonly teams: TeamRepository,
    private readonly access: AccessService,
  ) {}

  async describe(principal: Principal): Promise<MeResponseDto> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw AppException.unauthorized();
    let teams = await this.teams.listForUser(user.id);
    if (principal.kind === 'token') {
      // A token sees only its own team, with the role its scopes allow.
      const role = await this.access.effectiveRole(principal, principal.teamId);
      teams = teams.filter((t) => t.id === principal.teamId).map((t) => ({ ...t, role: role ?? t.role }));
    }
    return {
      user: { id: user.id, email: user.email, name: user.name },
      teams: teams.map(({ id, name, slug, role }) => ({ id, name, slug, role })),
      via: principal.kind,
      instanceAdmin: user.isInstanceAdmin,
      // Stored from CreateTokenDto's checked list; the filter only narrows the column's string[].
      ...(principal.kind === 'token' ? { token: { scopes: principal.scopes.filter(isTokenScope), workspaceId: principal.workspaceId } } : {}),
    };
  }
}
