// The events an agent run produces. The agent loop emits `{ type, data }`; the caller (worker)
// wraps each in the envelope `{ sessionId, seq, runId, ts, type, data }`, appends it to the
// session's event log and publishes it. Everything the model saw is in these events, so the
// conversation can be rebuilt from the log alone (`rebuildConversation` in @h/agent).
// `text.delta` and `thinking.delta` are ephemeral: published live, never needed for a rebuild.
import { z } from 'zod';
import { AGENT_CHANGE_KINDS, AGENT_CHANGE_STATUSES } from './changes';
import { SETTINGS_SECTION_KEYS } from './settings-sections';
import { PERMISSION_BEHAVIORS, STEP_END_STATUSES, STEP_PLAN_MAX_STEPS, TODO_STATUSES } from './session-api';

/** Base64 characters of a tool result's image kept in the log (a 1024x1024 PNG is well under). */
export const TOOL_IMAGE_MAX_BASE64 = 4 * 1024 * 1024;

export const agentToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type AgentToolCall = z.infer<typeof agentToolCallSchema>;

export const agentTodoSchema = z.object({
  content: z.string(),
  status: z.enum(TODO_STATUSES),
});
export type AgentTodo = z.infer<typeof agentTodoSchema>;

export const modelUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  cacheHitTokens: z.number(),
  cacheMissTokens: z.number(),
  reasoningTokens: z.number().optional(),
});

/**
 * Token use and cost of a run, a session or a team's month: the one usage shape, in the event log
 * (`usage.totals`, `run.done|failed|cancelled.usage`) and in the API (runs, sessions, team usage).
 */
export const usageSchema = z.object({
  requests: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  cacheHitTokens: z.number(),
  cacheMissTokens: z.number(),
  reasoningTokens: z.number(),
  /** US dollars, from the model's price table. */
  costUsd: z.number(),
});
export type Usage = z.infer<typeof usageSchema>;

export const toolCategorySchema = z.enum(['read', 'write', 'delete', 'command']);

/**
 * What the workspace context of a `prompt.guidance` told the model (libs/agent workspace-context):
 * instruction files by path and content hash, and the file tree it was shown, whole or as a patch.
 * The conversation folds these to know what the model already has, so the next run sends only
 * what changed, and the cached prefix is never rewritten.
 */
export const workspaceContextSchema = z.object({
  instructions: z.array(z.object({ path: z.string(), sha256: z.string(), removed: z.boolean().optional() })).optional(),
  tree: z
    .discriminatedUnion('mode', [
      z.object({ mode: z.literal('full'), paths: z.array(z.string()), total: z.number().int() }),
      z.object({ mode: z.literal('patch'), added: z.array(z.string()), deleted: z.array(z.string()) }),
    ])
    .optional(),
});
export type WorkspaceContextData = z.infer<typeof workspaceContextSchema>;

export const agentEventDataSchemas = {
  /** Starts a run. `systemChunkIds` are fixed by the session's first run and reused after. */
  'run.started': z.object({
    model: z.string(),
    thinking: z.boolean(),
    systemChunkIds: z.array(z.string()),
  }),
  /**
   * Appended by the API (with the author's `userId`) or by the loop; `synthetic` marks a harness
   * reminder (e.g. the final-reply rule), not something a person typed. `stepMode`: the API
   * appended it for a run that goes step by step (the message's choice, or the session's option).
   */
  'message.user': z.object({
    content: z.string(),
    userId: z.string().optional(),
    synthetic: z.boolean().optional(),
    stepMode: z.boolean().optional(),
    /**
     * A sub-agent's task message only (agent-profiles.ts): earlier task/summary pairs of its profile
     * in this session, sent before the task so delegations of one profile share a cached prefix
     * (seed: Sub-agent Prefix Caching), and the parent's user-profile memory subset when there is one.
     */
    prefix: z.array(z.object({ task: z.string(), summary: z.string() })).optional(),
    memory: z.string().optional(),
  }),
  /** One whole assistant message, as it goes back to the model on later requests. */
  'message.assistant': z.object({
    content: z.string().nullable(),
    reasoningContent: z.string().nullable().optional(),
    toolCalls: z.array(agentToolCallSchema).optional(),
    finishReason: z.string().nullable().optional(),
  }),
  'text.delta': z.object({ delta: z.string() }),
  'thinking.delta': z.object({ delta: z.string() }),
  /**
   * Text added after the cached prefix before a model request: newly selected guidance chunks,
   * (`changeIds`) what H tells the model about its changes a person rejected or reverted while the
   * run goes on, so the next request carries it instead of the next run's first message, or the
   * workspace context (`workspaceContext`: instruction files and the file tree or its patch).
   */
  'prompt.guidance': z.object({
    chunkIds: z.array(z.string()),
    content: z.string(),
    changeIds: z.array(z.string()).optional(),
    workspaceContext: workspaceContextSchema.optional(),
    /** Remembered entries this guidance told (libs/memory), as `id@version`: a later run tells only new or changed ones. */
    memoryIds: z.array(z.string()).optional(),
  }),
  'tool.start': z.object({
    toolCallId: z.string(),
    name: z.string(),
    arguments: z.string(),
    category: toolCategorySchema.nullable(),
    /** A person changed the input before allowing the call: `arguments` is theirs, not the model's. */
    editedByUser: z.boolean().optional(),
  }),
  'tool.end': z.object({
    toolCallId: z.string(),
    name: z.string(),
    /** Exactly what the model sees as the tool result. */
    result: z.string(),
    isError: z.boolean(),
    durationMs: z.number(),
    /**
     * Locator of the full output when the result was distilled or spilled (`[cmd #N]`): the text
     * itself is stored once per session (read_command_output, GET /sessions/:id/outputs/:n) and
     * never travels in the log or to stream subscribers.
     */
    outputId: z.number().optional(),
    /** What the stored output is (e.g. the command line). */
    outputLabel: z.string().optional(),
    /** UTF-8 bytes of the stored output. */
    outputBytes: z.number().optional(),
    /** The stored output was cut at its cap (TOOL_OUTPUT_MAX_BYTES or the command's capture cap). */
    outputTruncated: z.boolean().optional(),
    data: z.unknown().optional(),
    /**
     * An image the model saw with the result (browser_screenshot's PNG, at most 1024x1024): kept
     * in the log, bounded, so the conversation rebuilds from the events alone.
     */
    image: z.object({ mimeType: z.literal('image/png'), data: z.string().max(TOOL_IMAGE_MAX_BASE64) }).optional(),
  }),
  /**
   * A file the call changed, recorded (before/after) under `changeId` (GET /api/v1/changes/:id);
   * follows the call's tool.end. The content stays out of the log.
   */
  'file.changed': z.object({
    changeId: z.string(),
    toolCallId: z.string(),
    kind: z.enum(AGENT_CHANGE_KINDS),
    path: z.string(),
    fromPath: z.string().nullable(),
    added: z.number().int().min(0),
    removed: z.number().int().min(0),
    binary: z.boolean(),
    tooLarge: z.boolean(),
  }),
  'todos.updated': z.object({ todos: z.array(agentTodoSchema) }),
  'summary.written': z.object({ summary: z.string() }),
  /**
   * Step-by-step mode: the plan the model wrote with write_todos, validated and locked by the
   * server. The run executes exactly these steps, in this order (a step's index is its position).
   */
  'step.plan': z.object({ steps: z.array(z.object({ content: z.string().min(1) })).min(1).max(STEP_PLAN_MAX_STEPS) }),
  /** A step starts: `childRunId` is the code-writer sub-agent run that does it. */
  'step.begin': z.object({ index: z.number().int().min(0), content: z.string(), childRunId: z.string().optional() }),
  /**
   * A step ended: its status and the result passed on as context to the later steps (the
   * sub-agent's report, or why it failed; `skipped`: the run was stopped before it ran).
   */
  'step.end': z.object({
    index: z.number().int().min(0),
    status: z.enum(STEP_END_STATUSES),
    result: z.string(),
    childRunId: z.string().optional(),
  }),
  usage: z.object({
    request: modelUsageSchema,
    /** US dollars this request cost. */
    costUsd: z.number(),
    totals: usageSchema,
    /** chars/4 estimate of the next request (system prompt, tools, messages). */
    contextTokens: z.number(),
    contextWindow: z.number(),
  }),
  /**
   * Rolling history compaction: the first `replacedMessages` messages of the conversation (as
   * rebuilt up to this event) are replaced by one message holding `summary`.
   */
  compaction: z.object({
    replacedMessages: z.number().int().min(1),
    summary: z.string(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
  }),
  'run.done': z.object({ summary: z.string().nullable(), reply: z.string().nullable(), usage: usageSchema }),
  /** `settings`: the Settings section where the failure is mended (a provider key), when there is one. */
  'run.failed': z.object({ code: z.string(), message: z.string(), usage: usageSchema, settings: z.enum(SETTINGS_SECTION_KEYS).optional() }),
  /** `by`: the user who cancelled, when one did (the API appends it). */
  'run.cancelled': z.object({ usage: usageSchema, by: z.string().optional() }),
  /**
   * A terminal the agent started printed a loopback URL that answers a HEAD request inside the
   * sandbox with text/html: the console offers it as "open preview" (once per URL and terminal).
   */
  'preview.detected': z.object({ url: z.string().max(2048), terminalId: z.string(), toolCallId: z.string().optional() }),
  /** A non-fatal problem (e.g. a provider retry); the run goes on. */
  error: z.object({ code: z.string(), message: z.string() }),
} as const;

export type AgentEventType = keyof typeof agentEventDataSchemas;
export const AGENT_EVENT_TYPES = Object.keys(agentEventDataSchemas) as AgentEventType[];
export const EPHEMERAL_AGENT_EVENT_TYPES: readonly AgentEventType[] = ['text.delta', 'thinking.delta'];

export type AgentEventData<T extends AgentEventType> = z.infer<(typeof agentEventDataSchemas)[T]>;
export type AgentEvent = { [T in AgentEventType]: { type: T; data: AgentEventData<T> } }[AgentEventType];

const eventVariants = AGENT_EVENT_TYPES.map((type) =>
  z.object({ type: z.literal(type), data: agentEventDataSchemas[type] }),
);
export const agentEventSchema = z.discriminatedUnion(
  'type',
  eventVariants as unknown as [(typeof eventVariants)[number], ...(typeof eventVariants)[number][]],
);

export const permissionPreviewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('diff'), path: z.string(), diff: z.string(), added: z.number(), removed: z.number() }),
  z.object({ kind: z.literal('command'), command: z.string() }),
  /** The proposed change could not be computed (e.g. old_string not found); the call will fail the same way. */
  z.object({ kind: z.literal('unavailable'), reason: z.string() }),
]);
export type PermissionPreview = z.infer<typeof permissionPreviewSchema>;

// The log also carries events that are not the agent's: the worker's permission requests and the
// API's decisions on them. Every persisted event is one of these; EventRepository.append checks it.
export const sessionEventDataSchemas = {
  ...agentEventDataSchemas,
  /** A call waits for a person's decision (permission mode `approve`). */
  'permission.requested': z.object({
    permissionId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    input: z.unknown(),
    /** What the call would do, computed before asking: the unified diff of a write/edit, or the exact command. */
    preview: permissionPreviewSchema.optional(),
  }),
  'permission.resolved': z.object({
    permissionId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    behavior: z.enum(PERMISSION_BEHAVIORS),
    updatedInput: z.record(z.string(), z.unknown()).nullable(),
    message: z.string().nullable(),
    /** The deciding user's id. */
    decidedBy: z.string(),
  }),
  /**
   * A run started sub-agents (child runs in this session) for one of its tool calls and parks
   * until they end; the call's tool.end carries their outcomes. runId is the parent's.
   */
  'delegation.started': z.object({
    toolCallId: z.string(),
    children: z.array(z.object({ runId: z.string(), profile: z.string(), task: z.string() })).min(1),
  }),
  /**
   * Changes a person accepted, rejected or reverted (one event per decision; a run's revert is one
   * event for all its changes). A rejected or reverted change tells the agent on its next request.
   */
  'file.change.resolved': z.object({
    changeIds: z.array(z.string()).min(1),
    status: z.enum(AGENT_CHANGE_STATUSES).exclude(['applied']),
    /** Each change: its path and what is there now ("restored", "deleted", "renamed back to X"). */
    changes: z.array(z.object({ changeId: z.string(), kind: z.enum(AGENT_CHANGE_KINDS), path: z.string(), fromPath: z.string().nullable() })),
    decidedBy: z.string(),
  }),
} as const;

export type SessionEventType = keyof typeof sessionEventDataSchemas;
export type SessionEventData<T extends SessionEventType> = z.infer<(typeof sessionEventDataSchemas)[T]>;
export type SessionEvent = { [T in SessionEventType]: { type: T; data: SessionEventData<T> } }[SessionEventType];

export class InvalidEventError extends Error {
  constructor(type: string, problem: string) {
    super(`invalid ${type} event: ${problem}`);
    this.name = 'InvalidEventError';
  }
}

/**
 * Checks one event to be persisted against its contract; throws InvalidEventError naming the
 * event and the field. An invalid event is a bug in its producer, never user input.
 */
export function assertSessionEvent(event: { type: string; data: unknown }): asserts event is SessionEvent {
  if (!Object.hasOwn(sessionEventDataSchemas, event.type)) throw new InvalidEventError(event.type, 'unknown event type');
  const result = sessionEventDataSchemas[event.type as SessionEventType].safeParse(event.data);
  if (!result.success) {
    throw new InvalidEventError(event.type, result.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; '));
  }
}

// `type` is a plain string in the envelope: readers that care validate `{ type, data }` with
// agentEventSchema or assertSessionEvent.
export const agentEventEnvelopeSchema = z.object({
  sessionId: z.string(),
  seq: z.number().int().min(1),
  runId: z.string().nullable(),
  /** ISO-8601 timestamp. */
  ts: z.string(),
  type: z.string(),
  data: z.unknown(),
});
/** Any event of a session's log in its envelope (agent events and others alike). */
export type EventEnvelope = z.infer<typeof agentEventEnvelopeSchema>;
export type AgentEventEnvelope = AgentEvent & { sessionId: string; seq: number; runId: string | null; ts: string };

/** Validates one event (without envelope); throws a ZodError on a bad shape. */
export function parseAgentEvent(value: unknown): AgentEvent {
  return agentEventSchema.parse(value) as AgentEvent;
}
