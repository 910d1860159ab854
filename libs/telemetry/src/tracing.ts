import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export { SpanKind, SpanStatusCode };
export type { Attributes, Context, Span };

export interface TracingOptions {
  /** OTLP/HTTP base URL (spans go to `<endpoint>/v1/traces`); unset = tracing off. */
  endpoint?: string;
  serviceName: string;
}

export interface TracingHandle {
  /** Whether this handle installed the process's tracer (only the owner may shut it down). */
  readonly owner: boolean;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

// With no exporter nothing is registered: @opentelemetry/api stays its no-op self and withSpan
// calls straight through, so an untraced process pays one boolean test per span site.
let enabled = false;
const NOOP_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
const NOT_OWNER: TracingHandle = { owner: false, flush: async () => undefined, shutdown: async () => undefined };

/**
 * Installs the process's tracer: NodeTracerProvider (AsyncLocalStorage context, W3C trace-context
 * propagator) with a batching OTLP/HTTP JSON exporter. Once per process; the api and the worker
 * of an in-process test stack share the first one (its service name).
 */
export function startTracing(options: TracingOptions): TracingHandle {
  if (!options.endpoint || enabled) return NOT_OWNER;
  const base = options.endpoint.endsWith('/') ? options.endpoint : `${options.endpoint}/`;
  const exporter = new OTLPTraceExporter({ url: new URL('v1/traces', base).toString() });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  provider.register();
  enabled = true;
  return {
    owner: true,
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      enabled = false;
    },
  };
}

export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * Runs `fn` inside a new span (a child of the active one, or of `parent`), made the active span
 * for everything `fn` awaits; records a throw as the span's error.
 */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
  options: { kind?: SpanKind; parent?: Context } = {},
): Promise<T> {
  if (!enabled) return fn(NOOP_SPAN);
  const parent = options.parent ?? context.active();
  const span = trace.getTracer('h').startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * A span the caller ends (streams, HTTP responses), and the context that makes it the parent.
 * With tracing off: a no-op span and the current context.
 */
export function startSpan(name: string, attributes: Attributes, options: { kind?: SpanKind; parent?: Context } = {}): { span: Span; ctx: Context } {
  if (!enabled) return { span: NOOP_SPAN, ctx: context.active() };
  const parent = options.parent ?? context.active();
  const span = trace.getTracer('h').startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

export function failSpan(span: Span, err: unknown): void {
  if (!span.isRecording()) return;
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
}

export function runInContext<T>(ctx: Context, fn: () => T): T {
  return enabled ? context.with(ctx, fn) : fn();
}

/** W3C trace-context headers (`traceparent`, `tracestate`) of the active span, carried in job data. */
export type TraceCarrier = Record<string, string>;

export function traceCarrier(): TraceCarrier | undefined {
  if (!enabled) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length ? carrier : undefined;
}

/** The context a carrier (job data, request headers) names as parent; the current one without it. */
export function contextFromCarrier(carrier: unknown, base: Context = ROOT_CONTEXT): Context {
  if (!enabled || !carrier || typeof carrier !== 'object') return enabled ? base : context.active();
  return propagation.extract(base, carrier as Record<string, unknown>, {
    get: (c, k) => {
      const v = (c as Record<string, unknown>)[k];
      return typeof v === 'string' || Array.isArray(v) ? (v as string | string[]) : undefined;
    },
    keys: (c) => Object.keys(c as object),
  });
}
