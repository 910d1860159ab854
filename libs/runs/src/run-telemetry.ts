import type { AgentEvent } from '@h/contracts';
import type { ModelProvider } from '@h/llm';
import { failSpan, metrics, SpanKind, startSpan } from '@h/telemetry';

// The worker's run metrics and model-request spans (libs/telemetry declares the metrics).

/**
 * The provider with each stream counted (h_model_requests_total by outcome), timed, and traced as
 * a client span under the run's job span. The wrapped stream is the same stream.
 */
export function instrumentedProvider(provider: ModelProvider): ModelProvider {
  return {
    id: provider.id,
    async *stream(request) {
      const started = performance.now();
      const labels = { provider: provider.id, model: request.model };
      const { span } = startSpan(`model ${request.model}`, { 'gen_ai.operation.name': 'chat', 'gen_ai.system': provider.id, 'gen_ai.request.model': request.model }, { kind: SpanKind.CLIENT });
      let outcome = 'ok';
      try {
        for await (const event of provider.stream(request)) {
          if (event.type === 'usage') span.setAttributes({ 'gen_ai.usage.input_tokens': event.usage.promptTokens, 'gen_ai.usage.output_tokens': event.usage.completionTokens });
          yield event;
        }
      } catch (err) {
        outcome = request.signal?.aborted ? 'aborted' : 'error';
        failSpan(span, err);
        throw err;
      } finally {
        metrics.modelRequests.inc({ ...labels, outcome });
        metrics.modelRequestDuration.observe(labels, (performance.now() - started) / 1000);
        span.end();
      }
    },
  };
}

/**
 * What a batch of the engine's events says: tokens and cost of its usage events (one per model
 * request) per team and model, and its finished tool calls (tool.end) by tool and outcome.
 */
export function recordBatchMetrics(teamId: string, model: string, batch: readonly AgentEvent[]): void {
  for (const event of batch) {
    if (event.type === 'tool.end') {
      metrics.toolCalls.inc({ tool: event.data.name, outcome: event.data.isError ? 'error' : 'ok' });
      metrics.toolCallDuration.observe({ tool: event.data.name }, event.data.durationMs / 1000);
      continue;
    }
    if (event.type !== 'usage') continue;
    const r = event.data.request;
    const add = (kind: string, n: number | undefined) => n && metrics.modelTokens.inc({ team: teamId, model, kind }, n);
    add('prompt', r.promptTokens);
    add('completion', r.completionTokens);
    add('cache_hit', r.cacheHitTokens);
    add('cache_miss', r.cacheMissTokens);
    add('reasoning', r.reasoningTokens);
    if (event.data.costUsd > 0) metrics.modelCost.inc({ team: teamId, model }, event.data.costUsd);
  }
}

/** A run's end: its status, and its time from start (or queueing, if it never started) to now. */
export function recordRunEnd(run: { startedAt: Date | null; queuedAt: Date }, status: string): void {
  metrics.runsFinished.inc({ status });
  metrics.runDuration.observe({ status }, Math.max(0, Date.now() - (run.startedAt ?? run.queuedAt).getTime()) / 1000);
}
