export type {
  ChatRole,
  ToolCall,
  ChatMessage,
  ChatImage,
  ToolDefinition,
  ModelRequest,
  ModelUsage,
  ModelStreamEvent,
  ModelProvider,
} from './model-provider';
export type { ModelInfo, ThinkingSupport, ConfiguredModelInfo } from './model-catalog';
export {
  DEFAULT_MODEL,
  getModelInfo,
  registerModel,
  registerConfiguredModels,
  unknownModelReason,
  listModels,
  effectiveThinking,
  computeCost,
  emptyUsage,
  addUsage,
} from './model-catalog';
export type { ModelErrorCode, ModelErrorOptions } from './model-error';
export { ModelError, ModelCancelledError, isModelError } from './model-error';
export type { DeepSeekProviderOptions } from './deepseek.provider';
export { DeepSeekProvider, DEEPSEEK_BASE_URL, DEEPSEEK_DIALECT } from './deepseek.provider';
export type { ChatDialect, OpenAICompatibleProviderOptions, TransportOptions } from './openai-compatible.provider';
export { OpenAICompatibleProvider, PLAIN_DIALECT } from './openai-compatible.provider';
export type { ProviderHints } from './map-provider-error';
export { ProviderCache } from './provider-cache';
export { ChatStreamAssembler, parseUsage } from './chat-stream-assembler';
export type { RetryPolicy } from './retry-policy';
export { DEFAULT_RETRY_POLICY, backoffDelayMs, parseRetryAfter } from './retry-policy';
export { toWireMessages, toWireTools } from './to-openai-messages';
export type { WireMessage, WireTool } from './to-openai-messages';
export type { NodeFetchOptions, TransportFetch } from './node-fetch';
export { createNodeFetch, HONOURS_BODY_ACTIVITY } from './node-fetch';
