import pg from 'pg';

/**
 * Direct SQL on the pool Prisma's driver adapter also uses, for the statements on the hot paths:
 * every step of a run (event appends, the claim, the start's reads) and every posted message
 * (authentication, access, admission). Measured in bench/runs (sixth pass): a Prisma model query
 * costs 0.35 ms of CPU warm and 1–2 ms inside a busy worker, `$queryRaw` 0.17, the same statement
 * through pg 0.05; a run issues about 35 statements, so Prisma's pipeline was a large part of H's
 * own time per step. Everything off those paths keeps using Prisma.
 *
 * Only repositories use this (like Prisma itself). Values are always bound parameters: the
 * tagged template turns `${x}` into `$n`, never into SQL text.
 */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** A piece of SQL text written in code (a column list), inlined as is; never built from input. */
export class SqlFragment {
  constructor(readonly text: string) {}
}

/** The quoted column list of a Prisma-style `select` object (`{ id: true, … }`). */
export function columns(select: Record<string, unknown>, table?: string): SqlFragment {
  const prefix = table ? `${table}.` : '';
  return new SqlFragment(
    Object.keys(select)
      .map((k) => `${prefix}"${k}"`)
      .join(', '),
  );
}

/** `sql\`SELECT … WHERE id = ${id}::uuid\`` → `{ text: 'SELECT … WHERE id = $1::uuid', values: [id] }`. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlQuery {
  let text = strings[0];
  const bound: unknown[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v instanceof SqlFragment) text += v.text;
    else {
      bound.push(bindValue(v));
      text += `$${bound.length}`;
    }
    text += strings[i + 1];
  }
  return { text, values: bound };
}

// Dates are sent as ISO strings (UTC); the columns are `timestamp(3)` without a zone, which Prisma
// also fills with UTC wall time, and a `::timestamp` cast of an ISO string drops its `Z`.
// Bytes go as bytea: a Buffer as it is, any other view (a Uint8Array) as a Buffer over its memory.
function bindValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (ArrayBuffer.isView(v)) return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return JSON.stringify(v);
  return v;
}

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
/** `timestamp` columns hold UTC wall time (as Prisma writes them): read as UTC whatever TZ says. */
const parseUtcTimestamp = (s: string): Date => new Date(`${s.replace(' ', 'T')}Z`);

/** Type parsers of this path: UTC timestamps, and counts (`bigint`) as numbers. Numeric stays a string. */
export const SQL_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP_OID) return parseUtcTimestamp;
    if (oid === INT8_OID) return (s: string) => Number(s);
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

/** Runs statements on one connection: the pool, or a transaction's client. */
export interface SqlRunner {
  rows<T>(query: SqlQuery): Promise<T[]>;
  /** Rows changed (UPDATE/DELETE/INSERT without RETURNING). */
  count(query: SqlQuery): Promise<number>;
}

function runner(target: pg.Pool | pg.PoolClient): SqlRunner {
  return {
    async rows<T>(query: SqlQuery): Promise<T[]> {
      const result = await target.query({ text: query.text, values: query.values, types: SQL_TYPES });
      return result.rows as T[];
    },
    async count(query: SqlQuery): Promise<number> {
      const result = await target.query({ text: query.text, values: query.values, types: SQL_TYPES });
      return result.rowCount ?? 0;
    },
  };
}

/** The pool and its two ways in: one statement, or a transaction on one connection. */
export class SqlPool implements SqlRunner {
  private readonly direct: SqlRunner;

  constructor(readonly pool: pg.Pool) {
    this.direct = runner(pool);
  }

  rows<T>(query: SqlQuery): Promise<T[]> {
    return this.direct.rows<T>(query);
  }

  count(query: SqlQuery): Promise<number> {
    return this.direct.count(query);
  }

  /** BEGIN … COMMIT on one connection; ROLLBACK when `fn` throws (the error is rethrown). */
  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const out = await fn(runner(client));
      await client.query('COMMIT');
      return out;
    } catch (err) {
      // A connection that cannot even roll back is dropped, not handed to the next caller.
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      client.release(broken);
    }
  }
}
