import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { settingsPlace } from '@h/contracts';
import { ModelPresetRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, Principal } from '@h/identity';
import type { CreateRunDto, RunResultDto } from './bot-run.dto';
import { RunResultService } from './run-result.service';
import { RunService } from './run.service';
import { SessionFactory, type SessionSettings } from './session-factory.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The session a `clientRunId` names in a workspace: a UUID derived from both (SHA-256, laid out
 * as a version-8 UUID), so a retry, or two racing copies of one CI step, meet the same session
 * row (its primary key decides) and then the same run (its clientMessageId decides). No lookup
 * table, and nothing to clean up.
 */
export function sessionIdForClientRun(workspaceId: string, clientRunId: string): string {
  const h = createHash('sha256').update(`h-bot-run\0${workspaceId}\0${clientRunId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One call for bots: a new session with its first message, i.e. its first run. */
@Injectable()
export class BotRunService {
  constructor(
    private readonly factory: SessionFactory,
    private readonly presets: ModelPresetRepository,
    private readonly runs: RunService,
    private readonly results: RunResultService,
  ) {}

  async create(principal: Principal, access: AccessGrant, workspaceId: string, body: CreateRunDto, ip: string | null = null): Promise<RunResultDto> {
    const settings: SessionSettings = { title: body.title, model: body.model, thinking: body.thinking, permissionMode: body.mode, stepMode: body.stepMode };
    if (body.preset !== undefined) {
      if (body.model !== undefined) throw AppException.badRequest('VALIDATION_FAILED', 'Give model or preset, not both.');
      const preset = await this.findPreset(access.teamId, body.preset);
      settings.providerId = preset.providerId;
      settings.model = preset.model;
      settings.thinking = body.thinking ?? preset.thinking;
    }
    const id = body.clientRunId ? sessionIdForClientRun(workspaceId, body.clientRunId) : undefined;
    const { session } = await this.factory.create(principal, access, workspaceId, settings, ip, id);
    const { run } = await this.runs.postMessage(principal, access, session.id, { content: body.prompt, clientMessageId: body.clientRunId });
    return this.results.get(run.id);
  }

  private async findPreset(teamId: string, idOrName: string) {
    const byId = UUID.test(idOrName) ? await this.presets.findInTeam(teamId, idOrName) : null;
    if (byId) return byId;
    const all = await this.presets.listByTeam(teamId);
    const byName = all.find((p) => p.name === idOrName.trim());
    if (byName) return byName;
    const known = all.length ? `the team has ${all.map((p) => `"${p.name}"`).join(', ')}` : `the team has none (${settingsPlace('modelPresets')})`;
    throw AppException.badRequest('UNKNOWN_PRESET', `No model preset "${idOrName}": ${known}.`);
  }
}
