import OpenAI from 'openai';
import { ACTIVITY_HEADER, ActivityTracker } from './activity-fetch';
import { ChatStreamAssembler } from './chat-stream-assembler';
import { mapProviderError, type ErrorContext, type ProviderHints } from './map-provider-error';
import { getModelInfo, type ModelInfo } from './model-catalog';
import { ModelCancelledError, ModelError } from './model-error';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './model-provider';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, sleep, type RetryPolicy } from './retry-policy';
import { toWireMessages, toWireTools } from './to-openai-messages';

/** What a provider understands beyond plain Chat Completions. */
export interface ChatDialect {
  /** Sends DeepSeek's `thinking: {type}` toggle (and `reasoning_effort` in thinking mode). */
  thinkingToggle: boolean;
  /** Sends each assistant message's reasoning back as `reasoning_content` (DeepSeek needs it). */
  reasoningRoundTrip: boolean;
}

/** Plain OpenAI Chat Completions: no vendor fields are sent (a strict server would answer 400). */
export const PLAIN_DIALECT: ChatDialect = { thinkingToggle: false, reasoningRoundTrip: false };

export interface TransportOptions {
  /**
   * Longest silence tolerated, in ms: until the response headers, and then between two bytes of
   * the body (keep-alive comments count). Idle rather than total, because a long thinking answer
   * may legitimately stream for minutes.
   */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and dropped connections. Default 3. */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** A Retry-After longer than this fails the call at once instead of waiting. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /** Source of randomness for backoff jitter (tests make it deterministic). */
  random?: () => number;
  /**
   * The HTTP transport under the SDK (default: the global fetch). A team's own provider gets one
   * that checks every resolved address and follows no redirect (libs/providers guarded-fetch.ts).
   */
  fetch?: typeof fetch;
}

export interface OpenAICompatibleProviderOptions extends TransportOptions {
  /** e.g. 'deepseek', or 'custom:<id>' for a team's own provider. */
  id: string;
  /** Name used in error messages, e.g. 'DeepSeek' or 'provider "Local vLLM"'. */
  displayName: string;
  /** OpenAI-compatible base URL (…/v1 for most servers). */
  baseUrl: string;
  /** Empty or omitted: no Authorization header is sent (a local server without keys). */
  apiKey?: string | null;
  /** When set, a request without a key fails at once with this message ('auth'). */
  missingKeyMessage?: string;
  /** The model's window, price and thinking support. Default: the instance catalog (getModelInfo). */
  modelInfo?: (model: string) => ModelInfo;
  dialect?: ChatDialect;
  /** Where the user fixes a key or a balance, for error messages. */
  hints: ProviderHints;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Any OpenAI-compatible Chat Completions API (DeepSeek is one configured instance, see
 * deepseek.provider.ts), through the official `openai` SDK (HTTP, SSE parsing and error classes),
 * with our own retry loop because the rules differ from the SDK's: never retry once output has
 * reached the caller, and retry dropped streams too.
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly id: string;
  private readonly client: OpenAI;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly activity: ActivityTracker;
  private readonly apiKey: string;
  private readonly info: (model: string) => ModelInfo;
  private readonly dialect: ChatDialect;

  constructor(private readonly options: OpenAICompatibleProviderOptions) {
    this.id = options.id;
    this.baseUrl = options.baseUrl;
    this.apiKey = options.apiKey ?? '';
    this.info = options.modelInfo ?? getModelInfo;
    this.dialect = options.dialect ?? PLAIN_DIALECT;
    this.activity = new ActivityTracker(options.fetch);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
    };
    this.random = options.random ?? Math.random;
    this.client = new OpenAI({
      // The SDK refuses an empty key at construction; without one no Authorization header is sent
      // (a local server), or the request fails first with missingKeyMessage.
      apiKey: this.apiKey || 'no-api-key',
      baseURL: this.baseUrl,
      maxRetries: 0,
      timeout: 24 * 60 * 60 * 1000,
      defaultHeaders: this.apiKey ? options.defaultHeaders : { ...options.defaultHeaders, Authorization: null },
      logLevel: 'off',
      fetch: this.activity.fetch,
    });
  }

  /** One POST /embeddings (no retries: memory ranking goes on without it when it fails). */
  async embed(model: string, inputs: string[], signal?: AbortSignal): Promise<number[][]> {
    if (!this.apiKey && this.options.missingKeyMessage) throw new ModelError('auth', this.options.missingKeyMessage);
    const res = await this.client.embeddings.create({ model, input: inputs, encoding_format: 'float' }, { signal, timeout: this.timeoutMs });
    const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    if (vectors.length !== inputs.length) throw new ModelError('bad_request', `the provider answered ${vectors.length} embeddings for ${inputs.length} inputs`);
    return vectors;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    if (!this.apiKey && this.options.missingKeyMessage) throw new ModelError('auth', this.options.missingKeyMessage);
    const body = this.buildBody(request);
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        for await (const event of this.attempt(request, body)) {
          yielded = true;
          yield event;
        }
        return;
      } catch (err) {
        const error = err as ModelError;
        error.attempts = attempt;
        const retryAfter = error.retryAfterMs;
        const giveUp =
          !error.retryable ||
          yielded ||
          attempt > this.policy.maxRetries ||
          (retryAfter !== undefined && retryAfter > this.policy.maxRetryAfterMs);
        if (giveUp) throw error;
        await sleep(backoffDelayMs(attempt, this.policy, retryAfter, this.random), request.signal);
      }
    }
  }

  /** The JSON body sent to /chat/completions (exposed for tests and prompt-size measurements). */
  buildBody(request: ModelRequest): Record<string, unknown> {
    const info = this.info(request.model);
    const body: Record<string, unknown> = {
      model: request.model,
      messages: toWireMessages(request.messages, { reasoning: this.dialect.reasoningRoundTrip }),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools && request.tools.length > 0) body.tools = toWireTools(request.tools);
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    // Legacy names fix the mode themselves (deepseek-chat never thinks, deepseek-reasoner always
    // does); v4 models take an explicit toggle; unknown hosts only get it when asked for. A plain
    // OpenAI-compatible server gets no toggle: its model thinks or not by itself.
    let thinking = false;
    if (info.thinking === 'always') thinking = true;
    else if (this.dialect.thinkingToggle && info.thinking === 'toggle' && (info.known || request.thinking !== undefined)) {
      thinking = request.thinking ?? info.defaultThinking;
      body.thinking = { type: thinking ? 'enabled' : 'disabled' };
    }
    if (request.temperature !== undefined && !thinking) body.temperature = request.temperature;
    if (request.reasoningEffort !== undefined && thinking) body.reasoning_effort = request.reasoningEffort;
    return body;
  }

  private async *attempt(request: ModelRequest, body: Record<string, unknown>): AsyncGenerator<ModelStreamEvent> {
    const signal = request.signal;
    if (signal?.aborted) throw new ModelCancelledError();
    const controller = new AbortController();
    const ctx: ErrorContext = {
      providerName: this.options.displayName,
      model: request.model,
      contextWindow: this.info(request.model).contextWindow,
      baseUrl: this.baseUrl,
      timeoutMs: this.timeoutMs,
      userAborted: false,
      timedOut: false,
      apiKey: this.apiKey,
      hints: this.options.hints,
    };
    const onAbort = (): void => {
      ctx.userAborted = true;
      controller.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    // The clock stops while the caller handles an event: a slow consumer is not a slow server.
    let paused = false;
    const arm = (): void => {
      clearTimeout(timer);
      if (paused) return;
      timer = setTimeout(() => {
        ctx.timedOut = true;
        controller.abort();
      }, this.timeoutMs);
    };
    const activity = this.activity.register(arm);
    try {
      arm();
      const stream = await this.client.chat.completions.create(body as never, {
        signal: controller.signal,
        headers: { ...request.headers, [ACTIVITY_HEADER]: activity.id },
      });
      const assembler = new ChatStreamAssembler();
      for await (const chunk of stream as unknown as AsyncIterable<unknown>) {
        const events = assembler.push(chunk);
        paused = true;
        clearTimeout(timer);
        for (const event of events) {
          if (ctx.userAborted) throw new ModelCancelledError();
          yield event;
        }
        paused = false;
        arm();
      }
      clearTimeout(timer);
      // The SDK ends the iteration silently when aborted, so the cause has to be read from ctx.
      if (ctx.userAborted || ctx.timedOut) throw mapProviderError(undefined, ctx);
      if (!assembler.finished) {
        throw new ModelError('network', `The connection to ${ctx.providerName} closed before the answer was complete; retry.`, {
          retryable: true,
        });
      }
      for (const event of assembler.finish()) yield event;
    } catch (err) {
      throw mapProviderError(err, ctx);
    } finally {
      clearTimeout(timer);
      activity.dispose();
      signal?.removeEventListener('abort', onAbort);
      // Stops the HTTP stream when the caller broke out of the loop or an error ended it.
      controller.abort();
    }
  }
}
