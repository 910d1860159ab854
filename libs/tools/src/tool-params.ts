// One declaration per tool parameter gives both the zod validator and the JSON schema the model
// sees, so the two never drift. The JSON is written compactly by hand (no $schema, no defaults,
// no integer bounds noise): every byte of it is sent on every request.
import { z } from 'zod';

export interface Param<T> {
  zod: z.ZodType<T>;
  json: Record<string, unknown>;
  optional: boolean;
}

function param<T>(zod: z.ZodType<T>, json: Record<string, unknown>, description?: string): Param<T> {
  return { zod, json: description ? { ...json, description } : json, optional: false };
}

export const p = {
  string: (description?: string) => param(z.string(), { type: 'string' }, description),
  integer: (description?: string, min = 0) => param(z.number().int().min(min), { type: 'integer' }, description),
  boolean: (description?: string) => param(z.boolean(), { type: 'boolean' }, description),
  enum: <const V extends readonly [string, ...string[]]>(values: V, description?: string) =>
    param(z.enum(values), { type: 'string', enum: [...values] }, description),
  array: <T>(item: Param<T>, description?: string) =>
    param(z.array(item.zod), { type: 'array', items: item.json }, description),
  object: <S extends Record<string, Param<any>>>(shape: S, description?: string) => {
    const built = params(shape);
    return param(built.zod, built.json, description);
  },
  optional: <T>(inner: Param<T>): Param<T | undefined> => ({
    zod: inner.zod.optional(),
    json: inner.json,
    optional: true,
  }),
};

type Infer<S extends Record<string, Param<any>>> = {
  [K in keyof S]: S[K] extends Param<infer T> ? T : never;
};

export interface Params<T> {
  zod: z.ZodType<T>;
  json: Record<string, unknown>;
}

export function params<S extends Record<string, Param<any>>>(shape: S): Params<Infer<S>> {
  const zodShape: Record<string, z.ZodType> = {};
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, item] of Object.entries(shape)) {
    zodShape[name] = item.zod;
    properties[name] = item.json;
    if (!item.optional) required.push(name);
  }
  const json: Record<string, unknown> = { type: 'object', properties };
  if (required.length > 0) json.required = required;
  return { zod: z.object(zodShape).strict() as unknown as z.ZodType<Infer<S>>, json };
}
