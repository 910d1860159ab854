// Model presets: a team's named choices of model and thinking, picked when a session is created
// (REST under /api/v1/teams/:teamId/model-presets). Owners and admins edit them, everyone in the
// team reads them. Zod-free: the browser may import the constants.

export const MODEL_PRESET_NAME_MAX_LENGTH = 60;
/** Presets one team may keep (409 QUOTA_EXCEEDED beyond). */
export const MODEL_PRESETS_PER_TEAM = 50;

export type ModelThinkingSupport = 'toggle' | 'always' | 'never';

/** A model of the instance's catalog (built in, or added by the operator in MODEL_CATALOG). */
export interface CatalogModel {
  id: string;
  contextWindow: number;
  /** toggle: thinking is the preset's choice; always / never: the model decides. */
  thinking: ModelThinkingSupport;
}

export interface ModelPreset<TDate = string> {
  id: string;
  teamId: string;
  name: string;
  /** The team's custom provider of `model`; null: DeepSeek. */
  providerId: string | null;
  model: string;
  thinking: boolean;
  createdById: string;
  createdAt: TDate;
  updatedAt: TDate;
}

export interface ModelPresetList<TDate = string> {
  items: ModelPreset<TDate>[];
  /** The catalog a preset's model must come from. */
  models: CatalogModel[];
}

export interface CreateModelPresetRequest {
  name: string;
  /** A custom provider of the team (its models then apply); null or omitted: DeepSeek. */
  providerId?: string | null;
  model: string;
  thinking?: boolean;
}

export type UpdateModelPresetRequest = Partial<CreateModelPresetRequest>;
