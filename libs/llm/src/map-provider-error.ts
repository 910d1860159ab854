import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelCancelledError, ModelError } from './model-error';
import { parseRetryAfter } from './retry-policy';

/** Where the user fixes what a provider refused, in their words (e.g. a settings path). */
export interface ProviderHints {
  /** Where a valid key is set, e.g. 'Settings → DeepSeek API key'. */
  key: string;
  /** What to do about an empty account balance (HTTP 402). */
  balance?: string;
}

export interface ErrorContext {
  providerName: string;
  model: string;
  contextWindow: number;
  baseUrl: string;
  timeoutMs: number;
  userAborted: boolean;
  timedOut: boolean;
  /** Redacted from any text that came back from the server. */
  apiKey: string;
  hints: ProviderHints;
}

const CONTEXT_LENGTH_PATTERN = /context length|context window|maximum context|too many tokens|prompt is too long|context_length/i;

/** Maps anything thrown by the SDK or the stream into a ModelError whose message says what to do. */
export function mapProviderError(err: unknown, ctx: ErrorContext): ModelError {
  if (ctx.userAborted || (err instanceof APIUserAbortError && !ctx.timedOut)) return new ModelCancelledError();
  if (ctx.timedOut || err instanceof APIConnectionTimeoutError) {
    return new ModelError(
      'timeout',
      `${ctx.providerName} sent nothing for ${Math.round(ctx.timeoutMs / 1000)} s (model ${ctx.model}). ` +
        'The service may be overloaded; try again, or raise the request timeout.',
      { retryable: true, cause: err },
    );
  }
  if (err instanceof ModelError) return err;
  // The transport's own refusal (a guarded fetch: refused address, redirect) already says what to do.
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof ModelError) return cause;
  if (err instanceof APIConnectionError) return networkError(err, ctx);
  if (err instanceof APIError) return fromStatus(err, ctx);
  return networkError(err, ctx);
}

function networkError(err: unknown, ctx: ErrorContext): ModelError {
  const detail = redact(describeCause(err), ctx.apiKey);
  if (/ECONNREFUSED/.test(detail)) {
    return new ModelError(
      'network',
      `${ctx.providerName} refused the connection at ${ctx.baseUrl} (nothing listens there: ${detail}). Check that the server runs and the base URL, then retry.`,
      { retryable: true, cause: err },
    );
  }
  return new ModelError(
    'network',
    `Lost the connection to ${ctx.providerName} at ${ctx.baseUrl} (${detail}). Check the network and the provider base URL, then retry.`,
    { retryable: true, cause: err },
  );
}

function fromStatus(err: APIError, ctx: ErrorContext): ModelError {
  const status = err.status;
  const serverText = redact(serverMessage(err), ctx.apiKey);
  const said = serverText ? ` The provider said: "${serverText}"` : '';
  const base = { status, cause: err };
  if (status === 401 || status === 403) {
    return new ModelError(
      'auth',
      `${ctx.providerName} rejected the API key (HTTP ${status}). Set a valid key for your team under ${ctx.hints.key}.${said}`,
      base,
    );
  }
  if (status === 402) {
    return new ModelError(
      'insufficient_balance',
      `The ${ctx.providerName} account has insufficient balance (HTTP 402). ${ctx.hints.balance ?? 'Top it up, then retry.'}${said}`,
      base,
    );
  }
  if (status === 429) {
    return new ModelError(
      'rate_limited',
      `${ctx.providerName} is rate-limiting this key (HTTP 429). Wait a minute and retry, or run fewer sessions at once.${said}`,
      { ...base, retryable: true, retryAfterMs: parseRetryAfter(err.headers) },
    );
  }
  if (status === undefined || status >= 500) {
    // No status: an error event inside an already-open stream; DeepSeek sends these when overloaded.
    return new ModelError(
      'server',
      `${ctx.providerName} failed to answer${status ? ` (HTTP ${status})` : ' (error inside the stream)'}; ` +
        `this is on the provider's side, try again shortly.${said}`,
      { ...base, retryable: true, retryAfterMs: parseRetryAfter(err.headers) },
    );
  }
  if (CONTEXT_LENGTH_PATTERN.test(serverText)) {
    return new ModelError(
      'context_length',
      `The conversation is too long for ${ctx.model} (about ${ctx.contextWindow.toLocaleString('en-US')} tokens at most). ` +
        `Compact the history or start a new session.${said}`,
      base,
    );
  }
  if (status === 404) {
    return new ModelError(
      'bad_request',
      `${ctx.providerName} has no model "${ctx.model}" at ${ctx.baseUrl}, or the base URL is wrong (HTTP 404). ` +
        `Check the base URL (most servers want it to end in /v1) and the model list under ${ctx.hints.key}.${said}`,
      base,
    );
  }
  return new ModelError(
    'bad_request',
    `${ctx.providerName} rejected the request (HTTP ${status}).${said || ' Check the model name and the message history.'}`,
    base,
  );
}

function serverMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  // The SDK's own message starts with the status code; strip it so we do not repeat ourselves.
  return err.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
}

function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  // The system error (ECONNREFUSED, ENOTFOUND…) sits at the end of the chain: SDK error → fetch's TypeError → it.
  let code: string | undefined;
  for (let e: unknown = err, depth = 0; e && depth < 5 && !code; e = (e as { cause?: unknown }).cause, depth++) code = (e as { code?: string }).code;
  const causeText = cause instanceof Error && cause.message !== err.message ? `: ${cause.message}` : '';
  return `${err.message}${causeText}${code ? ` [${code}]` : ''}`;
}

function redact(text: string, apiKey: string): string {
  return apiKey.length >= 8 ? text.split(apiKey).join('[redacted]') : text;
}
