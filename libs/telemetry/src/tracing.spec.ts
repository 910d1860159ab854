import { startOtlpCollector, type OtlpCollector } from './testing/otlp-collector';
import { contextFromCarrier, startTracing, traceCarrier, tracingEnabled, withSpan, type TracingHandle } from './tracing';

describe('tracing', () => {
  let collector: OtlpCollector;
  let tracing: TracingHandle;

  beforeAll(async () => {
    collector = await startOtlpCollector();
    tracing = startTracing({ endpoint: collector.url, serviceName: 'h-test' });
  });

  afterAll(async () => {
    await tracing?.shutdown();
    await collector?.close();
  });

  it('should export nested spans and continue the trace from a carrier, as a job continues its enqueuer', async () => {
    let carrier: Record<string, string> | undefined;
    await withSpan('request', {}, () => withSpan('enqueue', {}, async () => void (carrier = traceCarrier())));
    expect(carrier?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // As the worker does: a fresh async chain that knows only the job data.
    await withSpan('job', {}, () => withSpan('tool read_file', {}, async () => undefined), { parent: contextFromCarrier(carrier) });
    await expect(withSpan('failing', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    // The flush resolves once the collector answered the export, so the spans are there.
    await tracing.flush();

    const byName = Object.fromEntries(collector.spans.map((s) => [s.name, s]));
    expect(new Set(['request', 'enqueue', 'job', 'tool read_file'].map((n) => byName[n].traceId)).size).toBe(1);
    expect(byName.enqueue.parentSpanId).toBe(byName.request.spanId);
    expect(byName.job.parentSpanId).toBe(byName.enqueue.spanId);
    expect(byName['tool read_file'].parentSpanId).toBe(byName.job.spanId);
    expect(byName.request.service).toBe('h-test');
    expect(byName.failing.status).toMatchObject({ code: 2, message: 'boom' });
  });

  it('should be a pass-through with no exporter configured', async () => {
    expect(startTracing({ endpoint: undefined, serviceName: 'x' }).owner).toBe(false);
    await tracing.shutdown();
    expect(tracingEnabled()).toBe(false);
    expect(await withSpan('untraced', {}, async () => traceCarrier())).toBeUndefined();
    tracing = startTracing({ endpoint: collector.url, serviceName: 'h-test' });
  });
});
