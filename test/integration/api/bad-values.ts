import { OpenApiDocument, OpenApiOperation, OpenApiSchema, resolveSchema } from './route-table';

// Generates, from the OpenAPI document alone, one broken value of every class for every body
// property, query parameter, path parameter and header of an operation. Nothing here names a
// route: a route added to the api is covered as soon as it is documented (and has an entry in the
// route table, which says how to build a valid request to break).

export type Position = 'body' | 'query' | 'path' | 'header';

export interface Slot {
  in: Position;
  name: string;
  schema: OpenApiSchema;
}

export interface BadValue {
  /** Class of bad input, e.g. "NUL", "deep arrays", "huge number". */
  kind: string;
  name: string;
  /** body: the JSON source text put in place of the property's value. */
  json?: string;
  /** query and path: percent-encoded text; header: the raw header value (latin-1). */
  text?: string;
}

/** How deep the nesting cases go: far past any sane limit, well within the body limit. */
export const DEEP = 10_000;
const HUGE_NUMBERS = ['99999999999999999999', '1e400', '-1e400', '9007199254740993', '2147483648', '-0', '1.5'];
const NUMBER_TEXTS = [...HUGE_NUMBERS, '0x10', '1e3', '+1', ' 1', 'Infinity', 'NaN', ''];

const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const isNumeric = (s: OpenApiSchema) => s.type === 'integer' || s.type === 'number';

/** Every body property, query, path and header parameter the operation takes. */
export function slotsOf(doc: OpenApiDocument, path: string, op: OpenApiOperation): Slot[] {
  const slots: Slot[] = [];
  const body = resolveSchema(doc, op.requestBody?.content?.['application/json']?.schema);
  for (const [name, schema] of Object.entries(body?.properties ?? {})) slots.push({ in: 'body', name, schema: resolveSchema(doc, schema) ?? {} });
  const params = (op.parameters ?? []) as { name: string; in: string; schema?: OpenApiSchema }[];
  for (const p of params) {
    if (p.in === 'query' || p.in === 'path' || p.in === 'header') slots.push({ in: p.in, name: p.name, schema: p.schema ?? {} });
  }
  // A path parameter read only by a guard may be missing from the document: the template has it.
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (!slots.some((s) => s.in === 'path' && s.name === name)) slots.push({ in: 'path', name, schema: { type: 'string' } });
  }
  return slots;
}

/** The schema itself, or its alternatives when it is one of several types (a JSON-RPC id). */
const kindsOf = (schema: OpenApiSchema): OpenApiSchema[] => (!schema.type && schema.oneOf?.length ? schema.oneOf : [schema]);

/** A number inside an integer's documented range is a value, not a bad one (e.g. any safe-integer JSON-RPC id). */
function documentedInteger(schema: OpenApiSchema, n: string): boolean {
  const v = Number(n);
  return kindsOf(schema).some((s) => s.type === 'integer' && s.minimum !== undefined && s.maximum !== undefined && Number.isSafeInteger(v) && !Object.is(v, -0) && v >= s.minimum && v <= s.maximum);
}

/** A fraction (e.g. dollars) where the operation documents a bounded `number`: a value, not a bad one. */
function documentedDecimal(schema: OpenApiSchema, n: string): boolean {
  const v = Number(n);
  return kindsOf(schema).some((s) => s.type === 'number' && s.minimum !== undefined && s.maximum !== undefined && Number.isFinite(v) && v >= s.minimum && v <= s.maximum);
}

function bodyValues(schema: OpenApiSchema): BadValue[] {
  const out: BadValue[] = [
    { kind: 'NUL', name: 'NUL in a string', json: '"a\\u0000b"' },
    { kind: 'lone surrogate', name: 'lone high surrogate', json: '"\\ud800"' },
    { kind: 'lone surrogate', name: 'lone low surrogate', json: '"x\\udfffy"' },
    { kind: 'NUL', name: 'NUL in a nested string', json: '["a\\u0000"]' },
    { kind: 'NUL', name: 'NUL in a nested key', json: '{"a\\u0000b":"c"}' },
    { kind: 'deep nesting', name: `${DEEP} nested arrays`, json: deepArrays(DEEP) },
    { kind: 'deep nesting', name: `${DEEP} nested objects`, json: deepObjects(DEEP) },
    ...HUGE_NUMBERS.filter((n) => !documentedInteger(schema, n) && !documentedDecimal(schema, n)).map((n) => ({ kind: 'huge number', name: `number ${n}`, json: n })),
    // Where null is documented (`nullable`), it is a value, not a bad one (README Limits).
    ...(schema.nullable ? [] : [{ kind: 'null', name: 'null', json: 'null' }]),
  ];
  const wrong: [string, string, (s: OpenApiSchema) => boolean][] = [
    ['a number', '12345', isNumeric],
    ['a boolean', 'true', (s) => s.type === 'boolean'],
    ['a string', '"text"', (s) => s.type === 'string'],
    ['a numeric string', '"12"', (s) => s.type === 'string'],
    ['a boolean string', '"true"', (s) => s.type === 'string'],
    ['an array', '["x"]', (s) => s.type === 'array'],
    ['an empty array', '[]', (s) => s.type === 'array'],
    ['an object', '{"a":"b"}', (s) => s.type === 'object'],
    ['an empty object', '{}', (s) => s.type === 'object'],
  ];
  for (const [name, json, sameType] of wrong) if (!kindsOf(schema).some(sameType)) out.push({ kind: 'wrong type', name, json });
  const text = kindsOf(schema).find((s) => s.type === 'string');
  if (text) {
    const max = text.maxLength ?? 10_000;
    out.push({ kind: 'oversized', name: `${max + 1} characters`, json: JSON.stringify('x'.repeat(max + 1)) });
  }
  if (schema.type === 'array') out.push({ kind: 'oversized', name: '10,000 items', json: JSON.stringify(new Array(10_000).fill('read')) });
  return out;
}

function textValues(slot: Slot): BadValue[] {
  const header = slot.in === 'header';
  const out: BadValue[] = [
    { kind: 'NUL', name: 'NUL', text: header ? 'a\u0000b' : 'a%00b' },
    { kind: 'oversized', name: '4,000 characters', text: 'x'.repeat(4000) },
  ];
  if (!header) {
    out.push(
      // A lone surrogate has no UTF-8 form: what a URL can carry is its would-be bytes.
      { kind: 'lone surrogate', name: 'UTF-8 bytes of a lone surrogate', text: '%ED%A0%80' },
      { kind: 'lone surrogate', name: 'invalid UTF-8', text: '%FF' },
      { kind: 'lone surrogate', name: 'broken percent-encoding', text: '%' },
      { kind: 'deep nesting', name: '1,000 nested brackets', text: encodeURIComponent(deepArrays(1000)) },
    );
  } else out.push({ kind: 'lone surrogate', name: 'a latin-1 byte', text: '\xff' });
  if (isNumeric(slot.schema) || slot.in === 'path' || header) {
    for (const n of NUMBER_TEXTS) if (n !== '' || slot.in === 'query') out.push({ kind: 'huge number', name: `"${n}"`, text: encodeURIComponent(n) });
  }
  // "null" is a wrong value for a number, an enum, an id or a patterned string; for free text (a
  // file path: `null` is a fine file name) it is just text.
  const freeText = slot.schema.type === 'string' && !slot.schema.enum && !slot.schema.pattern && !slot.schema.format;
  if (slot.in === 'query' && !freeText) out.push({ kind: 'null', name: 'the text null', text: 'null' });
  if (slot.in === 'query') {
    out.push(
      { kind: 'wrong type', name: 'given twice (an array)', text: 'REPEAT' },
      { kind: 'wrong type', name: 'bracket syntax (an object)', text: 'BRACKETS' },
    );
  }
  return out;
}

/**
 * Strings (and string array items) whose document states no bound: every string a client sends
 * must have a documented maxLength, pattern, enum or format (uuid), so the oversized case means something.
 */
export function unboundedStrings(doc: OpenApiDocument, path: string, op: OpenApiOperation): string[] {
  const unbounded = (s: OpenApiSchema) => s.type === 'string' && s.maxLength === undefined && !s.pattern && !s.enum && s.format !== 'uuid';
  return slotsOf(doc, path, op)
    .filter((s) => s.in !== 'path')
    .flatMap((s) => [
      ...(unbounded(s.schema) ? [`${s.in} ${s.name}`] : []),
      ...(s.schema.type === 'array' && unbounded(resolveSchema(doc, s.schema.items) ?? {}) ? [`${s.in} ${s.name}[]`] : []),
    ]);
}

export function badValuesFor(slot: Slot): BadValue[] {
  return slot.in === 'body' ? bodyValues(slot.schema) : textValues(slot);
}

/** Splices a bad value for `name` into a valid JSON body. */
export function bodyWith(valid: unknown, name: string, json: string): string {
  const rest = Object.fromEntries(Object.entries((valid ?? {}) as Record<string, unknown>).filter(([k]) => k !== name));
  const head = JSON.stringify(rest).slice(0, -1);
  return `${head}${head.length > 1 ? ',' : ''}${JSON.stringify(name)}:${json}}`;
}

/** Replaces (or adds) one query parameter of a valid query string with a bad value. */
export function queryWith(valid: string | undefined, name: string, text: string): string {
  const kept = (valid ?? '').replace(/^\?/, '').split('&').filter((p) => p && p.split('=')[0] !== name);
  const bad = text === 'REPEAT' ? `${name}=1&${name}=2` : text === 'BRACKETS' ? `${name}[a]=1` : `${name}=${text}`;
  return `?${[...kept, bad].join('&')}`;
}
