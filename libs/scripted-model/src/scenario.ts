import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

// `times`: how many attempts of the turn the fault hits before the turn answers normally
// (default 1; 'slow' defaults to every attempt, since a slow answer is still an answer).
const faultSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rate_limit'), retryAfterSeconds: z.number().min(0).optional(), times: z.number().int().min(1).optional() }),
  z.object({ type: z.literal('server_error'), status: z.number().int().min(500).max(599).optional(), times: z.number().int().min(1).optional() }),
  z.object({ type: z.literal('slow'), chunkDelayMs: z.number().min(0), times: z.number().int().min(1).optional() }),
  z.object({ type: z.literal('drop'), afterChunks: z.number().int().min(0).optional(), times: z.number().int().min(1).optional() }),
  z.object({ type: z.literal('hang'), afterChunks: z.number().int().min(0).optional(), times: z.number().int().min(1).optional() }),
  z.object({ type: z.literal('context_length'), times: z.number().int().min(1).optional() }),
  // An error object inside an open 200 stream, as providers send when they fail mid-answer.
  z.object({ type: z.literal('stream_error'), afterChunks: z.number().int().min(0).optional(), times: z.number().int().min(1).optional() }),
  // DeepSeek keeps a request that waits for capacity alive with SSE comments before answering.
  z.object({ type: z.literal('queued'), forMs: z.number().min(0), keepAliveMs: z.number().min(1).optional(), times: z.number().int().min(1).optional() }),
]);

const textOrList = z.union([z.string(), z.array(z.string())]);

const expectSchema = z
  .object({
    /** Role of the last message of the request. */
    lastMessageRole: z.enum(['system', 'user', 'assistant', 'tool']).optional(),
    /** Text(s) the last message must contain (for a batch of tool results: any of the trailing tool messages). */
    lastMessageContains: textOrList.optional(),
    /** Tool names the request must offer. */
    toolsInclude: z.array(z.string()).optional(),
    /** Text(s) the system prompt must contain. */
    systemContains: textOrList.optional(),
    /** Text(s) that must appear somewhere in the messages. */
    messagesContain: textOrList.optional(),
    /** Whether thinking mode must be on (true) or off (false). */
    thinking: z.boolean().optional(),
    /**
     * The request ends with a PNG image (a tool result's image, sent as a user message after the
     * tool results) of exactly this size: the model really got to see the screenshot.
     */
    lastImage: z.object({ width: z.number().int(), height: z.number().int() }).strict().optional(),
  })
  .strict();

const toolCallSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().min(1),
    /** An object (serialised with JSON.stringify) or raw text, e.g. to script invalid JSON. */
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
  })
  .strict();

const turnSchema = z
  .object({
    thinking: z.string().optional(),
    text: z.string().optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    finishReason: z.string().optional(),
    expect: expectSchema.optional(),
    fault: faultSchema.optional(),
  })
  .strict();

/**
 * A sub-agent's own script inside a scenario (H's delegate_task / delegate_parallel): a request of
 * the scenario whose system prompt and task (the user message its own answers follow, see
 * agents.ts) fit `match` is answered from these turns, as a conversation of its own.
 */
const agentScriptSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'name: letters, digits, ".", "_" and "-" only'),
    match: z
      .object({ systemContains: z.string().min(1).optional(), taskContains: z.string().min(1).optional() })
      .strict()
      .refine((m) => m.systemContains !== undefined || m.taskContains !== undefined, 'match needs systemContains or taskContains'),
    turns: z.array(turnSchema).min(1),
  })
  .strict();

export const scenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'name: letters, digits, ".", "_" and "-" only'),
    description: z.string().optional(),
    /** Auto-select this scenario when the first user message contains this text. */
    match: z.object({ firstUserMessageContains: z.string().min(1) }).strict().optional(),
    /** Files (path -> content) a harness writes into a fresh workspace before replaying the turns. */
    fixture: z.record(z.string(), z.string()).optional(),
    turns: z.array(turnSchema).min(1),
    /** Scripts of the sub-agents the scenario's agent delegates to, tried in order. */
    agents: z.array(agentScriptSchema).optional(),
  })
  .strict();

export type AgentScript = z.infer<typeof agentScriptSchema>;
export type FaultSpec = z.infer<typeof faultSchema>;
export type ScenarioExpect = z.infer<typeof expectSchema>;
export type ScriptedToolCall = z.infer<typeof toolCallSchema>;
export type ScenarioTurn = z.infer<typeof turnSchema>;
export type Scenario = z.infer<typeof scenarioSchema>;

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Validates a parsed scenario; the error names the file (when given) and each bad field. */
export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) throw new ScenarioError(`${source} is not a valid scenario:\n${z.prettifyError(result.error)}`);
  return result.data;
}

export function loadScenarioFile(file: string): Scenario {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ScenarioError(`${file}: ${(err as Error).message}`);
  }
  return parseScenario(json, file);
}

/** Every `*.json` file of a directory, sorted by name. */
export function loadScenarioDir(dir: string): Scenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadScenarioFile(join(dir, f)));
}

/**
 * The directory of example scenarios shipped with this library (e.g. fix-failing-test.json):
 * next to the sources, or, from a compiled dist/ tree that does not copy JSON, in the checkout.
 */
export function builtinScenarioDir(): string {
  const candidates = [join(__dirname, '..', 'scenarios'), join(process.cwd(), 'libs', 'scripted-model', 'scenarios')];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0];
}

export function defaultFaultTimes(fault: FaultSpec): number {
  if (fault.times !== undefined) return fault.times;
  return fault.type === 'slow' ? Number.POSITIVE_INFINITY : 1;
}
