// What the IDE keeps on the server: one ide-state document per user and workspace (layout, tabs,
// expanded folders…; `GET/PUT /api/v1/workspaces/:id/ide-state`) and one set of editor
// preferences per user (`GET/PUT /api/v1/me/preferences`). Typed once for the api and the web.
// Zod-free on purpose: the browser may import this file's values.

/**
 * The IDE's own document. The server treats it as opaque JSON (an object, bounded by
 * IDE_STATE_MAX_BYTES once serialised) so the IDE can grow fields without a migration; the web
 * reads every field defensively because an older or newer IDE may have written it.
 */
export interface IdeState {
  /** Panel group id -> panel id -> size in percent, as react-resizable-panels reports it. */
  layout?: Record<string, Record<string, number>>;
  /** Open editor tabs, workspace-relative paths, in tab order. */
  openTabs?: string[];
  activeTab?: string | null;
  /** Directories expanded in the explorer. */
  expandedDirs?: string[];
  /** The side view shown (registry id), null when the side bar is hidden. */
  sideView?: string | null;
  /** The bottom panel's tab (registry id), null when the panel is hidden. */
  bottomTab?: string | null;
  /** Terminal tabs in their order (ids owned by the terminals feature). */
  terminalTabs?: string[];
  [extra: string]: unknown;
}

export interface IdeStateResponse<TDate = string> {
  state: IdeState;
  /** null when nothing was stored yet (state is then `{}`). */
  updatedAt: TDate | null;
}

export interface PutIdeStateRequest {
  state: IdeState;
}

export const EDITOR_THEMES = ['light', 'dark'] as const;
export type EditorTheme = (typeof EDITOR_THEMES)[number];
export const WORD_WRAP_MODES = ['off', 'on'] as const;
export type WordWrapMode = (typeof WORD_WRAP_MODES)[number];

export const EDITOR_FONT_SIZE_RANGE = { min: 8, max: 40 } as const;
export const EDITOR_TAB_SIZE_RANGE = { min: 1, max: 8 } as const;

/** Per-user editor preferences; every field always present in answers (defaults filled in). */
export interface UserPreferences {
  editorFontSize: number;
  tabSize: number;
  wordWrap: WordWrapMode;
  theme: EditorTheme;
}

export const DEFAULT_USER_PREFERENCES: UserPreferences = { editorFontSize: 14, tabSize: 2, wordWrap: 'off', theme: 'light' };

/** PUT merges the fields sent over what is stored; fields left out keep their value. */
export type PutUserPreferencesRequest = Partial<UserPreferences>;

export interface UserPreferencesResponse<TDate = string> {
  preferences: UserPreferences;
  updatedAt: TDate | null;
}
