// The one decision about what a value from outside may be, before any DTO looks at it: used for
// every JSON body (body-parser.ts), every query and path parameter (validation.pipe.ts) and every
// Socket.IO message (the session gateway). The limits are in README.md's Limits table.

export const INPUT_LIMITS = {
  /** Deepest nesting of arrays and objects in a JSON body or socket message. */
  maxDepth: 32,
  /** Integers in a query or path parameter: Postgres `integer`, so no column ever overflows. */
  maxQueryInteger: 2_147_483_647,
  minQueryInteger: -2_147_483_648,
} as const;

// class-transformer silently drops these keys (prototype-pollution guard), so forbidNonWhitelisted
// never saw them and a body carrying one was accepted; refuse them like any other unknown field.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be accepted: Postgres text cannot hold NUL, and UTF-8 has no lone surrogates. */
export function stringProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (it contains a lone surrogate)';
  return null;
}

function numberProblem(value: number): string | null {
  if (!Number.isFinite(value)) return 'must be a finite number';
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return 'is beyond the safe integer range (±9007199254740991)';
  if (Object.is(value, -0)) return 'must not be -0';
  return null;
}

/**
 * The first reason `value` (a parsed JSON value, a query object or a parameter) cannot be
 * accepted, naming where it is (`where.a.b[2]`), or null. Iterative, so no nesting can overflow
 * the stack; stops at the first problem.
 */
export function findInputProblem(value: unknown, where: string, maxDepth: number = INPUT_LIMITS.maxDepth): string | null {
  const stack: [unknown, string, number][] = [[value, where, 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop() as [unknown, string, number];
    if (typeof v === 'string') {
      const p = stringProblem(v);
      if (p) return `${path} ${p}`;
    } else if (typeof v === 'number') {
      const p = numberProblem(v);
      if (p) return `${path} ${p}`;
    } else if (v && typeof v === 'object') {
      if (depth >= maxDepth) return `${path} is nested deeper than ${maxDepth} levels`;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`, depth + 1]);
        continue;
      }
      for (const key of Object.keys(v)) {
        const here = `${path}.${key}`;
        if (FORBIDDEN_KEYS.has(key)) return `property ${here.slice(where.length + 1)} should not exist`;
        const p = stringProblem(key);
        if (p) return `a property name in ${path} ${p}`;
        stack.push([(v as Record<string, unknown>)[key], here, depth + 1]);
      }
    }
  }
  return null;
}

const OPEN = [0x5b, 0x7b]; // [ {
const CLOSE = [0x5d, 0x7d]; // ] }

/**
 * Whether UTF-8 JSON text nests deeper than `maxDepth`, found in one pass over the bytes before
 * anything parses it (a megabyte of `[` is refused in microseconds, not parsed). Multi-byte UTF-8
 * sequences never contain ASCII bytes, so brackets inside strings are told apart by quotes alone.
 */
export function jsonTooDeep(buf: Buffer, maxDepth: number = INPUT_LIMITS.maxDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (inString) {
      if (b === 0x5c) i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (OPEN.includes(b)) {
      if (++depth > maxDepth) return true;
    } else if (CLOSE.includes(b)) depth--;
  }
  return false;
}

/**
 * A query or path integer as H accepts it: plain decimal digits with an optional minus sign, no
 * leading zeros, exponent, hex, spaces or plus sign, within the Postgres integer range.
 */
export function parseQueryInteger(text: unknown): number | null {
  if (typeof text !== 'string' || !/^(0|-?[1-9]\d{0,9})$/.test(text)) return null;
  const n = Number(text);
  return n >= INPUT_LIMITS.minQueryInteger && n <= INPUT_LIMITS.maxQueryInteger ? n : null;
}

/**
 * A raw query string that does not decode: a `%` without two hex digits, or escapes that are not
 * UTF-8 (`%FF`, a lone surrogate's `%ED%A0%80`). Express' parser keeps such text as it is or puts
 * U+FFFD in its place, so a free-text parameter (a file path) would be taken with other characters
 * than the client sent: refused before parsing instead.
 */
export function queryStringProblem(url: string): string | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  for (const part of url.slice(q + 1).split('#')[0].split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return 'The query string is not valid percent-encoded UTF-8.';
    }
  }
  return null;
}
