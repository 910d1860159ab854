export { runAgent, DEFAULT_MAX_STEPS, FINAL_REPLY_REMINDER } from './agent-run';
export type { AgentRunOptions, AgentRunResult, AgentRunStatus, AuthorizationRequest, ToolAuthorization, StepTiming } from './agent-run.types';
export { Conversation, rebuildConversation, type RebuildOptions, pairingViolations, INTERRUPTED_RESULT, COMPACTION_PREFIX, type StoredEvent } from './conversation';
export { planCompaction, compactionFor, DEFAULT_COMPACTION, COMPACTION_WINDOW_SHARE, type CompactionPlan, type CompactionSettings } from './compaction';
export { spillIfOversize, SPILL_THRESHOLD_BYTES, type Spilled } from './spill';
export { estimateMessagesTokens, estimateToolsTokens, CHARS_PER_TOKEN } from './context-estimate';
export { UsageMeter } from './usage-meter';
export { ItrSelector, selectChunks, buildSystemPrompt, buildGuidance, renderChunks } from './prompt/itr';
export { PROMPT_CHUNKS, MIN_TRIGGER_SCORE, type PromptChunk } from './prompt/prompt-chunks';
