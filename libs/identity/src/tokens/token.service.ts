import { Injectable } from '@nestjs/common';
import { ApiTokenRecord, ApiTokenRepository, WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import { AuditService } from '../audit/audit.service';
import { AccessGrant, isTokenScope, Principal, roleAtLeast, scopeCeiling } from '../access/principal';
import { sha256 } from '../auth/secrets';
import type { CreateTokenDto, CreatedTokenDto, TokenDto, TokenListDto } from './token.dto';
import { newApiToken } from './token-format';

function toDto(t: ApiTokenRecord): TokenDto {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    // Stored from CreateTokenDto's checked list; the filter only narrows the column's string[].
    scopes: t.scopes.filter(isTokenScope),
    workspaceId: t.workspaceId,
    expiresAt: t.expiresAt,
    lastUsedAt: t.lastUsedAt,
    createdById: t.createdById,
    createdAt: t.createdAt,
  };
}

@Injectable()
export class TokenService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly audit: AuditService,
  ) {}

  async list(access: AccessGrant): Promise<TokenListDto> {
    return { items: (await this.tokens.listActive(access.teamId)).map(toDto) };
  }

  async create(principal: Principal, access: AccessGrant, body: CreateTokenDto, ip: string | null): Promise<CreatedTokenDto> {
    const scopes = [...new Set(body.scopes ?? ['read', 'write'])];
    if (!roleAtLeast(access.role, scopeCeiling(scopes))) {
      throw AppException.forbidden(`A ${access.role} cannot create a token with scopes ${scopes.join(', ')}.`);
    }
    if (body.workspaceId && (await this.workspaces.findTeamId(body.workspaceId)) !== access.teamId) {
      throw AppException.notFound('Workspace');
    }
    const { prefix, token } = newApiToken();
    const record = await this.tokens.create({
      teamId: access.teamId,
      createdById: principal.userId,
      name: body.name.trim(),
      prefix,
      secretHash: sha256(token),
      scopes,
      workspaceId: body.workspaceId ?? null,
      expiresAt: body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86400_000) : null,
    });
    await this.audit.byPrincipal(principal, {
      action: 'token.create',
      teamId: access.teamId,
      targetType: 'api_token',
      targetId: record.id,
      ip,
      metadata: { prefix, scopes, workspaceId: record.workspaceId },
    });
    return { token: toDto(record), secret: token };
  }

  async revoke(principal: Principal, access: AccessGrant, id: string, ip: string | null): Promise<void> {
    const token = await this.tokens.findInTeam(access.teamId, id);
    if (!token || token.revokedAt) throw AppException.notFound('Token');
    if (token.createdById !== principal.userId && !roleAtLeast(access.role, 'admin')) {
      throw AppException.forbidden('Only its creator or a team admin can revoke this token.');
    }
    await this.tokens.revoke(id);
    await this.audit.byPrincipal(principal, {
      action: 'token.revoke',
      teamId: access.teamId,
      targetType: 'api_token',
      targetId: id,
      ip,
      metadata: { prefix: token.prefix },
    });
  }
}
