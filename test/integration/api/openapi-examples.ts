import { OpenApiDocument, OpenApiSchema } from './route-table';

// What counts as "this body has an example" in /api/docs-json: the media type carries one, or
// its schema does, or (an object) every property does, recursively through $refs, arrays and
// compositions. An enum or a default is its own example (the UI shows it).

type Schema = OpenApiSchema & {
  example?: unknown;
  examples?: unknown;
  default?: unknown;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
};

export interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}

/** Paths (`name`, `items[].path`, or `` for the whole) inside `schema` that have no example. */
export function missingExamples(doc: OpenApiDocument, schema: Schema | undefined, at = '', seen = new Set<string>()): string[] {
  if (!schema) return [at || '(no schema)'];
  if (schema.example !== undefined || schema.examples !== undefined || schema.default !== undefined) return [];
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    const name = schema.$ref.replace('#/components/schemas/', '');
    return missingExamples(doc, doc.components?.schemas?.[name] as Schema | undefined, at, new Set([...seen, schema.$ref]));
  }
  if (schema.enum?.length) return [];
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (parts.length) return parts.flatMap((p) => missingExamples(doc, p, at, seen));
  if (schema.type === 'array') return missingExamples(doc, schema.items, `${at}[]`, seen);
  const props = Object.entries(schema.properties ?? {});
  if (props.length) return props.flatMap(([name, p]) => missingExamples(doc, p, at ? `${at}.${name}` : name, seen));
  return [at || '(whole body)'];
}

/** Problems of one request or response body: each of its media types must be exemplified. */
export function bodyExampleProblems(doc: OpenApiDocument, content: Record<string, MediaType> | undefined): string[] {
  return Object.entries(content ?? {}).flatMap(([type, media]) => {
    if (media.example !== undefined || media.examples !== undefined) return [];
    const missing = missingExamples(doc, media.schema);
    return missing.length ? [`${type}: ${missing.join(', ')}`] : [];
  });
}
