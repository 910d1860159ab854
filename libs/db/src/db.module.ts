import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { RedisService } from './redis.service';
import { AgentSessionRepository } from './repositories/agent-session.repository';
import { AuditRepository } from './repositories/audit.repository';
import { EgressLogRepository } from './repositories/egress-log.repository';
import { EventBusRepository } from './repositories/event-bus.repository';
import { EventRepository } from './repositories/event.repository';
import { H2cTaskRepository } from './repositories/h2c-task.repository';
import { InstanceRepository } from './repositories/instance.repository';
import { PermissionRepository } from './repositories/permission.repository';
import { RunRepository } from './repositories/run.repository';
import { TeamBudgetRepository } from './repositories/team-budget.repository';
import { SubAgentRunRepository } from './repositories/sub-agent-run.repository';
import { SandboxRepository } from './repositories/sandbox.repository';
import { AuthSessionRepository } from './repositories/auth-session.repository';
import { ApiTokenRepository } from './repositories/api-token.repository';
import { InvitationRepository } from './repositories/invitation.repository';
import { ModelPresetRepository } from './repositories/model-preset.repository';
import { CustomProviderRepository } from './repositories/custom-provider.repository';
import { PresenceRepository } from './repositories/presence.repository';
import { TerminalHistoryRepository } from './repositories/terminal-history.repository';
import { HealthRepository } from './repositories/health.repository';
import { IdeStateRepository } from './repositories/ide-state.repository';
import { ProviderCredentialRepository } from './repositories/provider-credential.repository';
import { RateLimitRepository } from './repositories/rate-limit.repository';
import { ToolOutputRepository } from './repositories/tool-output.repository';
import { TeamRepository } from './repositories/team.repository';
import { UserRepository } from './repositories/user.repository';
import { WorkspaceRepository } from './repositories/workspace.repository';
import { AgentChangeRepository } from './repositories/agent-change.repository';
import { WorkspaceGitRemoteRepository } from './repositories/workspace-git-remote.repository';
import { McpServerRepository } from './repositories/mcp-server.repository';
import { MemoryRepository } from './repositories/memory.repository';
import { SessionSearchRepository } from './repositories/session-search.repository';

const repositories = [
  H2cTaskRepository,
  InstanceRepository,
  McpServerRepository,
  MemoryRepository,
  SessionSearchRepository,
  AgentSessionRepository,
  EventBusRepository,
  EventRepository,
  PermissionRepository,
  RunRepository,
  TeamBudgetRepository,
  SubAgentRunRepository,
  SandboxRepository,
  AuditRepository,
  EgressLogRepository,
  AuthSessionRepository,
  ApiTokenRepository,
  HealthRepository,
  IdeStateRepository,
  InvitationRepository,
  ProviderCredentialRepository,
  RateLimitRepository,
  TeamRepository,
  ToolOutputRepository,
  UserRepository,
  WorkspaceRepository,
  AgentChangeRepository,
  WorkspaceGitRemoteRepository,
  ModelPresetRepository,
  CustomProviderRepository,
  PresenceRepository,
  TerminalHistoryRepository,
];

@Global()
@Module({
  providers: [PrismaService, RedisService, ...repositories],
  exports: [PrismaService, RedisService, ...repositories],
})
export class DbModule {}
