import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

// Imported FIRST by a spec that must see every write of its own stack and nobody else's: points
// test-env (so the harness and the fixtures' SQL) at a database of the spec's own before any
// module reads the URL. The spec creates it with createIsolatedDatabase(OWN_DATABASE_NAME) in
// beforeAll and drops it in afterAll.
export const OWN_DATABASE_NAME = `h_test_own_${randomUUID().slice(0, 8)}`;
const shared = process.env.H_TEST_DATABASE_URL ?? `postgresql://root@127.0.0.1:5432/${process.env.H_TEST_DATABASE ?? 'h_test'}`;
process.env.H_TEST_DATABASE_URL = shared.replace(/\/[^/?]+(\?|$)/, `/${OWN_DATABASE_NAME}$1`);

/** Columns every authenticated request touches (last seen, last used): not a write of the request. */
const ACCESS_COLUMNS = ['lastSeenAt', 'lastUsedAt'];

/**
 * A digest per table of every row (access timestamps left out), to prove a request wrote nothing.
 * Only meaningful on a database no one else writes to.
 */
export async function tableDigests(db: Client): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ table_name: string; cols: string }>(
    `SELECT table_name, string_agg(quote_ident(column_name), ',' ORDER BY ordinal_position) AS cols
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' AND NOT (column_name = ANY($1))
      GROUP BY table_name ORDER BY table_name`,
    [ACCESS_COLUMNS],
  );
  const query = tables
    .map(
      (t) =>
        `SELECT ${`'${t.table_name}'`} AS t, count(*)::text || ':' || coalesce(md5(string_agg(md5(row(${t.cols})::text), '' ORDER BY md5(row(${t.cols})::text))), '') AS d FROM "${t.table_name}"`,
    )
    .join(' UNION ALL ');
  const { rows } = await db.query<{ t: string; d: string }>(query);
  return Object.fromEntries(rows.map((r) => [r.t, r.d]));
}
