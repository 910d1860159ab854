import { Module, OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TeamRepository } from '@h/db';
import { AccessService } from './access/access.service';
import { AuthGuard } from './access/auth.guard';
import { InstanceAdminMiddleware } from './access/instance-admin.middleware';
import { ResourceResolverRegistry } from './access/resource-resolver.registry';
import { AuditService } from './audit/audit.service';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { MeService } from './auth/me.service';
import { PasswordService } from './auth/password.service';
import { InvitationController } from './invitations/invitation.controller';
import { InvitationService } from './invitations/invitation.service';
import { TeamController } from './teams/team.controller';
import { TeamQuotaService } from './teams/team-quota.service';
import { TeamService } from './teams/team.service';
import { TokenController } from './tokens/token.controller';
import { TokenService } from './tokens/token.service';

@Module({
  controllers: [AuthController, TeamController, InvitationController, TokenController],
  providers: [
    AccessService,
    AuditService,
    AuthService,
    InstanceAdminMiddleware,
    MeService,
    PasswordService,
    ResourceResolverRegistry,
    InvitationService,
    TeamService,
    TeamQuotaService,
    TokenService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AccessService, AuditService, AuthService, InstanceAdminMiddleware, ResourceResolverRegistry, TeamQuotaService],
})
export class IdentityModule implements OnModuleInit {
  constructor(
    private readonly resolvers: ResourceResolverRegistry,
    private readonly teams: TeamRepository,
  ) {}

  onModuleInit(): void {
    this.resolvers.register('team', async (id) => ((await this.teams.findById(id)) ? { teamId: id, workspaceId: null } : null));
  }
}
