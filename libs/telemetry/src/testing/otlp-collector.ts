import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
}

export interface OtlpCollector {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (spans arrive at <url>/v1/traces). */
  url: string;
  spans: CollectedSpan[];
  close(): Promise<void>;
}

// OTLP/JSON ids are hex; a base64 id (the proto3 JSON mapping) is converted so both compare.
const hex = (id: unknown) => (typeof id !== 'string' || !id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));

function anyValue(v: Record<string, unknown> | undefined): unknown {
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  return v;
}

const attributesOf = (list: unknown): Record<string, unknown> =>
  Object.fromEntries(((list as Array<{ key: string; value: Record<string, unknown> }>) ?? []).map((a) => [a.key, anyValue(a.value)]));

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1: decodes the JSON the exporter posts (the only
 * encoding @opentelemetry/exporter-trace-otlp-http sends) into flat spans.
 */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans?: Array<Record<string, any>> };
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId),
              name: s.name,
              kind: s.kind,
              service,
              attributes: attributesOf(s.attributes),
              status: s.status ?? {},
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
