export { startScriptedModelServer } from './scripted-model.server';
export { DEMO_LABEL } from './answers';
export type { ScriptedModelServer, ScriptedModelServerOptions, RecordedRequest, RequestOutcome } from './scripted-model.server';
export { parseScenario, loadScenarioFile, loadScenarioDir, builtinScenarioDir, scenarioSchema, ScenarioError } from './scenario';
export type { Scenario, ScenarioTurn, ScenarioExpect, ScriptedToolCall, FaultSpec } from './scenario';
export { CONVERSATION_HEADER, SCENARIO_HEADER } from './conversation';
export { estimateTokens, renderPrompt, commonPrefixLength, promptUsage, CHARS_PER_TOKEN, CACHE_UNIT_TOKENS } from './prompt-accounting';
export type { PromptUsage } from './prompt-accounting';
export { checkExpectations } from './expectations';
