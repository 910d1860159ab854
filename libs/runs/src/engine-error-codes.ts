import { type AgentEvent, type ErrorCode, failureSettingsSection, isErrorCode } from '@h/contracts';
import type { ModelErrorCode } from '@h/llm';

// The engine (libs/agent) names its failures in its own words: `step_limit`, `no_completion`,
// `internal_error`, and `model_<code>` for a ModelError of libs/llm (map-provider-error.ts). This is
// the one place they become API codes, before a run's failure is stored or published.
// The Claude Code engine (libs/claude-code) adds `claude_code_*`.
type EngineErrorCode =
  | 'step_limit' | 'no_completion' | 'step_plan_invalid' | 'internal_error' | 'model_error' | 'model_stream_restarted' | `model_${ModelErrorCode}`
  | 'claude_code_error' | 'claude_code_exited' | 'claude_code_protocol';

// A Record over the union: a new ModelErrorCode without an API code here is a compile error.
const ENGINE_TO_API: Record<EngineErrorCode, ErrorCode> = {
  step_limit: 'STEP_LIMIT',
  no_completion: 'NO_COMPLETION',
  step_plan_invalid: 'STEP_PLAN_INVALID',
  internal_error: 'INTERNAL',
  model_error: 'MODEL_FAILED',
  model_stream_restarted: 'MODEL_STREAM_RESTARTED',
  model_auth: 'PROVIDER_AUTH_FAILED',
  model_insufficient_balance: 'PROVIDER_BALANCE',
  model_rate_limited: 'PROVIDER_RATE_LIMITED',
  model_server: 'PROVIDER_ERROR',
  model_network: 'PROVIDER_UNREACHABLE',
  model_timeout: 'PROVIDER_TIMEOUT',
  model_bad_request: 'PROVIDER_BAD_REQUEST',
  model_context_length: 'CONTEXT_TOO_LONG',
  model_cancelled: 'CANCELLED',
  claude_code_error: 'ENGINE_FAILED',
  claude_code_exited: 'ENGINE_FAILED',
  claude_code_protocol: 'ENGINE_FAILED',
};

/** The API code for an engine failure code (API codes pass as they are); an unknown one is INTERNAL. */
export function apiErrorCode(engineCode: string): ErrorCode {
  if (isErrorCode(engineCode)) return engineCode;
  return Object.hasOwn(ENGINE_TO_API, engineCode) ? ENGINE_TO_API[engineCode as EngineErrorCode] : 'INTERNAL';
}

/**
 * A failure or error event as the API tells it: the engine's code translated (above),
 * and a failure that Settings mends names its section (the console links there).
 */
export function asApiFailure(event: AgentEvent, session: { engine: string; providerId: string | null }): AgentEvent {
  if (event.type === 'error') return { ...event, data: { ...event.data, code: apiErrorCode(event.data.code) } };
  if (event.type !== 'run.failed') return event;
  const code = apiErrorCode(event.data.code);
  const settings = failureSettingsSection(code, session);
  return { ...event, data: { ...event.data, code, ...(settings ? { settings } : {}) } };
}
