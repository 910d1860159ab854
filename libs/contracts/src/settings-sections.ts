// Where each setting lives in the IDE's Settings page: one home for the page's headings (their
// ids are link targets), its table of contents, and every error or hint that sends a user there.
// A renamed heading changes here, and the page, its contents list and the messages follow.

// Type-only: this entry stays free of the registry's values for the browser.
import type { ErrorCode } from './error-codes';

export interface SettingsSectionInfo {
  /** The heading's element id: `#id` links land on it. */
  id: string;
  /** The heading's text, as the user reads it. */
  title: string;
  /** Also on the team page (a team's own settings), not only in a workspace's Settings. */
  onTeamPage: boolean;
}

export const SETTINGS_SECTIONS = {
  preferences: { id: 'preferences-heading', title: 'Your editor preferences', onTeamPage: false },
  mcpServers: { id: 'mcp-servers-heading', title: 'MCP servers', onTeamPage: false },
  memory: { id: 'memory-heading', title: 'Memory', onTeamPage: false },
  modelPresets: { id: 'presets-heading', title: 'Model presets', onTeamPage: false },
  deepseekKey: { id: 'provider-heading-deepseek', title: 'DeepSeek API key', onTeamPage: true },
  anthropicKey: { id: 'provider-heading-anthropic', title: 'Anthropic API key', onTeamPage: true },
  customProviders: { id: 'custom-providers-heading', title: 'OpenAI-compatible providers', onTeamPage: true },
  members: { id: 'members-heading', title: 'Members', onTeamPage: true },
  tokens: { id: 'tokens-heading', title: 'API tokens', onTeamPage: true },
} as const satisfies Record<string, SettingsSectionInfo>;

export type SettingsSection = keyof typeof SETTINGS_SECTIONS;

/**
 * Where a setting is, in the words of the UI: "Settings → DeepSeek API key (a workspace's Settings,
 * or the team page)". `item` names an entry within the section (a custom provider's name).
 */
export function settingsPlace(section: SettingsSection, item?: string): string {
  const s: SettingsSectionInfo = SETTINGS_SECTIONS[section];
  const path = `Settings → ${s.title}${item ? ` → ${item}` : ''}`;
  return s.onTeamPage ? `${path} (a workspace's Settings, or the team page)` : path;
}

/** The section keys, for schemas (`run.failed`'s `settings`). */
export const SETTINGS_SECTION_KEYS = Object.keys(SETTINGS_SECTIONS) as [SettingsSection, ...SettingsSection[]];

/**
 * Run failures a team admin mends in Settings: the provider keys and the team's providers live
 * there. Checked against the error registry (a misspelt code is a compile error).
 */
export const SETTINGS_FIX_CODES: ReadonlySet<string> = new Set<ErrorCode>(['PROVIDER_KEY_MISSING', 'PROVIDER_KEY_UNREADABLE', 'PROVIDER_AUTH_FAILED', 'PROVIDER_GONE']);

/**
 * Where a run's failure with `code` is mended, for a session on `engine` with team provider
 * `providerId` (null: DeepSeek): the key's or provider's section, or undefined when Settings cannot
 * mend it. The console links there ("Open Settings").
 */
export function failureSettingsSection(code: string, session: { engine: string; providerId: string | null }): SettingsSection | undefined {
  if (!SETTINGS_FIX_CODES.has(code)) return undefined;
  if (session.engine === 'claude-code') return 'anthropicKey';
  return session.providerId ? 'customProviders' : 'deepseekKey';
}
