import { AsyncLocalStorage } from 'node:async_hooks';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';

/** What every log line written inside a request or a job carries. */
export interface LogContext {
  requestId?: string;
  runId?: string;
  jobId?: string;
  job?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` with `fields` added to the current context (an inner run keeps the outer's fields it
 * does not override): a run started by a request logs both ids.
 */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, fn);
}

/**
 * Runs `fn` outside any request's or job's context (no log ids, no parent span). For long-lived
 * resources made lazily by whichever request or job comes first: a connection's event callbacks
 * run in the context it was made in, and would otherwise log (and trace) under that first caller
 * for the rest of the process's life.
 */
export function detachedFromContext<T>(fn: () => T): T {
  return storage.exit(() => context.with(ROOT_CONTEXT, fn));
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/**
 * pino's `mixin`: the async context's ids, and the active span's trace id when tracing is on, on
 * every line; nobody passes them by hand. An id the logger is already bound to (pino-http binds the
 * request id to its own lines) is left out, so no line carries a key twice.
 */
export function logContextMixin(_merge?: object, _level?: number, logger?: { bindings(): Record<string, unknown> }): Record<string, string> {
  const out: Record<string, string> = {};
  const store = storage.getStore();
  if (store) for (const [k, v] of Object.entries(store)) if (v !== undefined) out[k] = v;
  const span = trace.getActiveSpan()?.spanContext();
  if (span && span.traceFlags & 1) out.traceId = span.traceId;
  if (!store || !logger) return out;
  const bound = logger.bindings();
  for (const k of Object.keys(out)) if (k in bound) delete out[k];
  return out;
}
