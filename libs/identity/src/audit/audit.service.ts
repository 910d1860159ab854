import { Injectable, Logger } from '@nestjs/common';
import { AuditEntryInput, AuditRepository } from '@h/db';
import type { Principal } from '../access/principal';

@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');

  constructor(private readonly audit: AuditRepository) {}

  async record(entry: AuditEntryInput): Promise<void> {
    await this.audit.record(entry);
    this.logger.log({ audit: { action: entry.action, teamId: entry.teamId, targetType: entry.targetType, targetId: entry.targetId } });
  }

  /** Records an action by whoever made the request (user or token). */
  async byPrincipal(
    principal: Principal,
    entry: Omit<AuditEntryInput, 'actorUserId' | 'actorTokenId'>,
  ): Promise<void> {
    await this.record({
      ...entry,
      actorUserId: principal.userId,
      actorTokenId: principal.kind === 'token' ? principal.tokenId : null,
    });
  }
}
