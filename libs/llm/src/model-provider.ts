// The provider-neutral contract between the agent loop and a chat model. The agent (libs/agent)
// depends only on these types; DeepSeekProvider is one implementation, and tests swap the
// endpoint (the scripted server), never the interface.

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text exactly as the model produced it (may be invalid JSON: the caller validates). */
  arguments: string;
}

export interface ChatMessage {
  role: ChatRole;
  content: string | null;
  /** Assistant thinking; DeepSeek requires it back on every assistant message of a tool-calling turn. */
  reasoningContent?: string | null;
  /** Assistant only. */
  toolCalls?: ToolCall[];
  /** Tool only: the id of the call this message answers. */
  toolCallId?: string;
  /** Tool name on tool messages (informational; not sent to the API). */
  name?: string;
  /**
   * Images: on a tool message, what the result carries (a browser screenshot; the OpenAI format has
   * no images in tool messages, so they go out as a user message right after the turn's tool
   * results); on a user message, sent with its text as content parts.
   */
  images?: ChatImage[];
}

export interface ChatImage {
  mimeType: 'image/png';
  /** Base64. */
  data: string;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** Thinking mode. Undefined = the model's default (see ModelInfo.defaultThinking). */
  thinking?: boolean;
  /** DeepSeek's thinking effort (sent only in thinking mode); the API defaults to 'high'. */
  reasoningEffort?: 'low' | 'high' | 'max';
  maxTokens?: number;
  /** Ignored by DeepSeek in thinking mode, so it is not sent then. */
  temperature?: number;
  signal?: AbortSignal;
  /**
   * Extra HTTP headers for this request, for harnesses only (a benchmark naming its conversation
   * to the scripted server); H's worker sends none, so production requests are what the provider documents.
   */
  headers?: Record<string, string>;
}

export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  reasoningTokens?: number;
}

export type ModelStreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'usage'; usage: ModelUsage }
  /** Last event of every successful stream: the whole assistant message, tool calls assembled. */
  | { type: 'done'; finishReason: string | null; message: ChatMessage };

export interface ModelProvider {
  /** e.g. 'deepseek' */
  readonly id: string;
  /**
   * Streams one model response. Throws ModelError (ModelCancelledError on abort) from the
   * iterator. Breaking out of the loop early aborts the HTTP request.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * Embeddings of `inputs` with `model` (POST /embeddings of OpenAI-compatible APIs), one vector
   * each, in order; absent on providers that have no such API. Throws ModelError.
   */
  embed?(model: string, inputs: string[], signal?: AbortSignal): Promise<number[][]>;
}
