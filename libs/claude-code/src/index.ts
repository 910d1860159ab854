export { ModelGateway } from './model-gateway';
export type { GatewayLease, GatewayRun, ModelGatewayOptions } from './model-gateway';
export { MessagesUsageParser } from './messages-usage';
export type { MessagesUsage } from './messages-usage';
export { ClaudeUsageMeter, messagesCost, toModelUsage, anthropicPrice } from './claude-usage';
export { driveClaudeCode } from './claude-code-session';
export type { ClaudeCodeDriveOptions, ClaudeCodeOutcome, ClaudeDecision, ClaudeToolRequest } from './claude-code-session';
export { claudeLaunch, forwarderPort, toolCategory, CLAUDE_BIN } from './claude-tools';
export type { ClaudeLaunch } from './claude-tools';
