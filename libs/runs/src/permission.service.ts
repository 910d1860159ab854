import { Injectable } from '@nestjs/common';
import { EventBusRepository, EventRepository, PermissionRecord, PermissionRepository, RunRepository } from '@h/db';
import { AppException, errorStatus } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { CORE_TOOLS } from '@h/tools';
import { RunDispatcher } from './run-dispatcher.service';
import type { PermissionDecisionDto, PermissionDto, PermissionListDto } from './run.dto';

export function toPermissionDto({ decision: _d, ...p }: PermissionRecord): PermissionDto {
  return p;
}

/**
 * An edited input must fit the tool's own parameters, so the tool runs with exactly what the person
 * approved (the engine would otherwise turn a bad one into an error result nobody saw coming).
 */
function assertToolInput(toolName: string, input: Record<string, unknown>): void {
  const tool = CORE_TOOLS.find((t) => t.name === toolName);
  if (!tool) return; // a tool outside the core set is checked by the engine when it runs
  const parsed = tool.input.safeParse(input);
  if (parsed.success) return;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
  throw new AppException(errorStatus('INVALID_TOOL_INPUT'), 'INVALID_TOOL_INPUT', `The edited input does not fit ${toolName}: ${issues}`);
}

// Approvals live in Postgres, never in a process: the run's job ended when it asked, and the
// decision (from any member, over REST or Socket.IO) requeues the run to resume from its event log.
@Injectable()
export class PermissionService {
  constructor(
    private readonly permissions: PermissionRepository,
    private readonly events: EventRepository,
    private readonly runs: RunRepository,
    private readonly bus: EventBusRepository,
    private readonly dispatcher: RunDispatcher,
    private readonly audit: AuditService,
  ) {}

  async list(sessionId: string, status?: 'pending'): Promise<PermissionListDto> {
    return { items: (await this.permissions.listBySession(sessionId, status)).map(toPermissionDto) };
  }

  async decide(principal: Principal, access: AccessGrant, id: string, body: PermissionDecisionDto, ip: string | null = null): Promise<PermissionDto> {
    const request = await this.permissions.findById(id);
    if (!request) throw AppException.notFound('Permission request');
    if (body.updatedInput !== undefined && (typeof body.updatedInput !== 'object' || body.updatedInput === null || Array.isArray(body.updatedInput))) {
      throw AppException.badRequest('VALIDATION_FAILED', 'updatedInput must be an object of tool arguments');
    }
    if (body.behavior === 'deny' && body.updatedInput !== undefined) {
      throw AppException.badRequest('VALIDATION_FAILED', 'updatedInput only goes with behavior "allow"');
    }
    if (body.updatedInput !== undefined) assertToolInput(request.toolName, body.updatedInput);
    const decided = await this.permissions.decide(id, {
      status: body.behavior === 'allow' ? 'allowed' : 'denied',
      decidedById: principal.userId,
      updatedInput: body.updatedInput,
      message: body.message,
    });
    if (!decided) {
      throw AppException.conflict('ALREADY_DECIDED', `This request was already answered (${request.status}).`);
    }
    const appended = await this.events.append(
      request.sessionId,
      [
        {
          type: 'permission.resolved',
          data: {
            permissionId: id,
            toolCallId: request.toolCallId,
            toolName: request.toolName,
            behavior: body.behavior,
            updatedInput: body.updatedInput ?? null,
            message: body.message ?? null,
            decidedBy: principal.userId,
          },
        },
      ],
      { runId: request.runId },
    );
    await this.bus.publishEvents(appended);
    await this.audit.byPrincipal(principal, {
      action: `permission.${body.behavior}`,
      teamId: access.teamId,
      targetType: 'permission',
      targetId: id,
      ip,
      metadata: { tool: request.toolName, runId: request.runId },
    });
    // If the worker has not finished parking the run yet, it sees the decision itself and requeues.
    if (await this.runs.requeue(request.runId)) await this.dispatcher.dispatch(access.teamId);
    const updated = await this.permissions.findById(id);
    return toPermissionDto(updated ?? request);
  }
}
