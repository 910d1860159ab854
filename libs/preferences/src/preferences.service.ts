import { Injectable } from '@nestjs/common';
import { DEFAULT_USER_PREFERENCES, EDITOR_FONT_SIZE_RANGE, EDITOR_TAB_SIZE_RANGE, EDITOR_THEMES, type IdeState, type UserPreferences, WORD_WRAP_MODES } from '@h/contracts';
import { AppConfig } from '@h/config';
import { IdeStateRepository } from '@h/db';
import { AppException } from '@h/http';
import type { IdeStateResponseDto, PutUserPreferencesDto, UserPreferencesResponseDto } from './preferences.dto';

const inRange = (v: unknown, r: { min: number; max: number }): v is number => typeof v === 'number' && Number.isInteger(v) && v >= r.min && v <= r.max;

/**
 * Preferences as stored may come from an older or newer H: keep the fields that are still valid
 * and fill the rest with defaults, so an answer always has every field.
 */
export function normalisePreferences(stored: unknown): UserPreferences {
  const s = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  return {
    editorFontSize: inRange(s.editorFontSize, EDITOR_FONT_SIZE_RANGE) ? s.editorFontSize : DEFAULT_USER_PREFERENCES.editorFontSize,
    tabSize: inRange(s.tabSize, EDITOR_TAB_SIZE_RANGE) ? s.tabSize : DEFAULT_USER_PREFERENCES.tabSize,
    wordWrap: (WORD_WRAP_MODES as readonly unknown[]).includes(s.wordWrap) ? (s.wordWrap as UserPreferences['wordWrap']) : DEFAULT_USER_PREFERENCES.wordWrap,
    theme: (EDITOR_THEMES as readonly unknown[]).includes(s.theme) ? (s.theme as UserPreferences['theme']) : DEFAULT_USER_PREFERENCES.theme,
  };
}

// The IDE's server-side client state (the seed's client-state persistence, per user): whoever
// may see a workspace keeps their own IDE state in it; preferences belong to the user alone.
@Injectable()
export class PreferencesService {
  constructor(
    private readonly repo: IdeStateRepository,
    private readonly config: AppConfig,
  ) {}

  async ideState(userId: string, workspaceId: string): Promise<IdeStateResponseDto> {
    const row = await this.repo.find(userId, workspaceId);
    return row ? { state: row.value as IdeState, updatedAt: row.updatedAt } : { state: {}, updatedAt: null };
  }

  async putIdeState(userId: string, workspaceId: string, state: IdeState): Promise<IdeStateResponseDto> {
    const max = this.config.env.IDE_STATE_MAX_BYTES;
    const bytes = Buffer.byteLength(JSON.stringify(state), 'utf8');
    if (bytes > max) {
      throw new AppException(413, 'IDE_STATE_TOO_LARGE', `The IDE state is ${bytes} bytes of JSON; at most ${max} (IDE_STATE_MAX_BYTES) are kept. Close some tabs or collapse folders.`);
    }
    const row = await this.repo.put(userId, workspaceId, state);
    return { state: row.value as IdeState, updatedAt: row.updatedAt };
  }

  async preferences(userId: string): Promise<UserPreferencesResponseDto> {
    const row = await this.repo.findPreferences(userId);
    return { preferences: normalisePreferences(row?.value), updatedAt: row?.updatedAt ?? null };
  }

  async putPreferences(userId: string, patch: PutUserPreferencesDto): Promise<UserPreferencesResponseDto> {
    const current = normalisePreferences((await this.repo.findPreferences(userId))?.value);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const next = normalisePreferences({ ...current, ...defined });
    const row = await this.repo.putPreferences(userId, { ...next });
    return { preferences: normalisePreferences(row.value), updatedAt: row.updatedAt };
  }
}
