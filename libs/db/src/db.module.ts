import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { RedisService } from './redis.service';
import { AuditRepository } from './repositories/audit.repository';
import { AuthSessionRepository } from './repositories/auth-session.repository';
import { ApiTokenRepository } from './repositories/api-token.repository';
import { HealthRepository } from './repositories/health.repository';
import { ProviderCredentialRepository } from './repositories/provider-credential.repository';
import { RateLimitRepository } from './repositories/rate-limit.repository';
import { TeamRepository } from './repositories/team.repository';
import { UserRepository } from './repositories/user.repository';
import { WorkspaceRepository } from './repositories/workspace.repository';

const repositories = [
  AuditRepository,
  AuthSessionRepository,
  ApiTokenRepository,
  HealthRepository,
  ProviderCredentialRepository,
  RateLimitRepository,
  TeamRepository,
  UserRepository,
  WorkspaceRepository,
];

@Global()
@Module({
  providers: [PrismaService, RedisService, ...repositories],
  exports: [PrismaService, RedisService, ...repositories],
})
export class DbModule {}
