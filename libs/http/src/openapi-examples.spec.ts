import type { OpenAPIObject } from '@nestjs/swagger';
import { fillFormatExamples, FORMAT_EXAMPLES } from './openapi-examples';

describe(fillFormatExamples.name, () => {
  it('should give ids and times an example where none is written, and keep the written ones', () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      components: {
        schemas: {
          Thing: {
            type: 'object',
            properties: {
              id: { type: 'string', format: 'uuid' },
              own: { type: 'string', format: 'uuid', example: '00000000-0000-4000-8000-000000000001' },
              at: { type: 'array', items: { type: 'string', format: 'date-time' } },
              name: { type: 'string' },
            },
          },
        },
      },
      paths: {
        '/x/{id}': {
          get: { parameters: [{ name: 'id', in: 'path', schema: { type: 'string', format: 'uuid' } }], responses: { '200': { description: 'ok' } } },
        },
      },
    } as unknown as OpenAPIObject;
    fillFormatExamples(doc);
    const props = (doc.components?.schemas?.Thing as { properties: Record<string, { example?: unknown; items?: { example?: unknown } }> }).properties;
    expect(props.id.example).toBe(FORMAT_EXAMPLES.uuid);
    expect(props.own.example).toBe('00000000-0000-4000-8000-000000000001');
    expect(props.at.items?.example).toBe(FORMAT_EXAMPLES['date-time']);
    expect(props.name.example).toBeUndefined();
    expect((doc.paths['/x/{id}'].get?.parameters?.[0] as { schema: { example?: unknown } }).schema.example).toBe(FORMAT_EXAMPLES.uuid);
  });
});
