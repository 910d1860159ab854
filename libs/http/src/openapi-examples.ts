import type { OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * One example per format that carries no meaning of its own (an id, a time), so DTOs write
 * examples only where the value says something (names, paths, statuses, contents).
 */
export const FORMAT_EXAMPLES: Record<string, unknown> = {
  uuid: '7d3f6c2a-5b1e-4c8a-9f0d-2e6b8a4c1d90',
  'date-time': '2026-12-01T09:30:00.000Z',
  date: '2026-12-01',
  email: 'ada@example.org',
  uri: 'https://h.example.org/',
  binary: '(file bytes)',
};

type Node = SchemaObject & Record<string, unknown>;

function visit(schema: unknown, seen: Set<unknown>): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as Node;
  if (typeof node.format === 'string' && node.example === undefined && node.examples === undefined && node.format in FORMAT_EXAMPLES) {
    node.example = FORMAT_EXAMPLES[node.format];
  }
  for (const child of Object.values(node.properties ?? {})) visit(child, seen);
  for (const key of ['items', 'additionalProperties', 'not'] as const) visit(node[key], seen);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) for (const child of node[key] ?? []) visit(child, seen);
}

/** Fills `example` on every schema in the document whose format is in FORMAT_EXAMPLES and has none. */
export function fillFormatExamples(document: OpenAPIObject): void {
  const seen = new Set<unknown>();
  for (const schema of Object.values(document.components?.schemas ?? {})) visit(schema, seen);
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      for (const p of op.parameters ?? []) if ('schema' in p) visit(p.schema, seen);
      const bodies = [op.requestBody, ...Object.values(op.responses ?? {})];
      for (const body of bodies) {
        if (!body || typeof body !== 'object' || !('content' in body)) continue;
        for (const media of Object.values(body.content ?? {}) as { schema?: unknown }[]) visit(media.schema, seen);
      }
    }
  }
}
