// The Postgres side of the offline schema engine: the driver-adapter factory handed to Prisma's Wasm
// schema engine (main and shadow connections through @prisma/adapter-pg), plus the few plain `pg`
// operations the native binary does by itself (can-connect, create/drop database).
// The work-arounds are the pitfalls listed in prisma/README.md, each marked "pitfall N".
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { PrismaPg } = require('@prisma/adapter-pg');
// adapter-pg pins this exact version; resolving it through adapter-pg keeps the two in step.
const { bindMigrationAwareSqlAdapterFactory } = createRequire(require.resolve('@prisma/adapter-pg'))(
  '@prisma/driver-adapter-utils',
);

const PG_CHAR_OID = 18; // Postgres' internal one-byte "char" (pg_class.relkind, pg_constraint.contype, ...)
const PG_TEXT_OID = 25;
// The database every Postgres server has; CREATE/DROP DATABASE cannot run inside the one they name.
const MAINTENANCE_DATABASE = 'postgres';

export function describeUrl(url) {
  const u = new URL(url);
  return {
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres',
    location: `${u.hostname || 'localhost'}:${u.port || 5432}`,
    schema: u.searchParams.get('schema') || undefined,
  };
}

export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = '/' + encodeURIComponent(database);
  return u.toString();
}

export function quoteIdent(name) {
  return '"' + name.replace(/"/g, '""') + '"';
}

// Runs one statement on the server of `url`, connected to its maintenance database.
export async function adminQuery(url, sql) {
  const client = new pg.Client({ connectionString: withDatabase(url, MAINTENANCE_DATABASE) });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

// Maps a pg connection failure to the error codes the CLI understands (P1003 makes `migrate dev`
// offer to create the database).
export function connectionError(url, error) {
  const { database, location } = describeUrl(url);
  if (error.code === '3D000') {
    return { code: 'P1003', message: `Database \`${database}\` does not exist on the database server at \`${location}\`.` };
  }
  if (error.code === '28P01' || error.code === '28000') {
    return { code: 'P1000', message: `Authentication failed against database server at \`${location}\`: ${error.message}` };
  }
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(error.code)) {
    return { code: 'P1001', message: `Can't reach database server at \`${location}\`` };
  }
  return { code: 'P1000', message: error.message };
}

// Resolves to null when `url` accepts a connection, else to { code, message }.
export async function checkConnection(url) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return null;
  } catch (error) {
    return connectionError(url, error);
  } finally {
    await client.end().catch(() => {});
  }
}

// Pitfall 2: adapter-pg maps result columns by type OID and rejects Postgres' internal "char"
// (OID 18), which the engine's catalog queries return (`Column type 'char' could not be
// deserialized`). pg hands such values over as strings already, so relabel the column as text.
function reportCharAsText(queryable) {
  const performIO = queryable.performIO.bind(queryable);
  queryable.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
  return queryable;
}

// adapter-pg's executeScript splits the script on every ";" (breaking any literal, comment or
// function body that contains one). The native engine sends a migration as one simple-protocol
// query, which Postgres runs statement by statement in one implicit transaction; do the same.
function patchAdapter(adapter) {
  reportCharAsText(adapter);
  const client = adapter.underlyingDriver();
  adapter.executeScript = async (script) => {
    try {
      await client.query(script);
    } catch (error) {
      adapter.onError(error);
    }
  };
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => reportCharAsText(await startTransaction(...args));
  return adapter;
}

// Shadow databases this process created and has not dropped yet.
const liveShadowDatabases = new Map(); // name -> server url

async function dropShadowDatabase(name) {
  const url = liveShadowDatabases.get(name);
  await adminQuery(url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  liveShadowDatabases.delete(name);
}

// Last resort when the process is stopped mid-command (the engine normally disposes the shadow
// connection, which drops its database, before it answers).
export async function dropLiveShadowDatabases() {
  for (const name of [...liveShadowDatabases.keys()]) await dropShadowDatabase(name).catch(() => {});
}

// The factory handed to the Wasm engine: main connections go to datasource.url; shadow connections
// (migrate dev, diff --from-migrations) go to a fresh database that is dropped when the engine lets
// go of it, or to datasource.shadowDatabaseUrl as is when one is configured.
export function createAdapterFactory({ url, shadowDatabaseUrl }) {
  const missingUrl = new Error('No datasource URL given: set datasource.url in prisma.config.ts (DATABASE_URL).');
  const requireUrl = () => {
    if (!url) throw missingUrl;
  };
  const options = url ? { schema: describeUrl(url).schema } : undefined;
  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    async connect() {
      requireUrl();
      return patchAdapter(await new PrismaPg({ connectionString: url }, options).connect());
    },
    async connectToShadowDb() {
      if (shadowDatabaseUrl) return patchAdapter(await new PrismaPg({ connectionString: shadowDatabaseUrl }).connect());
      requireUrl();
      // Pitfall 3: adapter-pg's own connectToShadowDb creates a database but then connects with
      // the main connectionString (which wins over `database`), so the "shadow" is the main
      // database. Create and connect to a real throw-away one instead.
      const name = `prisma_shadow_${Date.now()}_${randomBytes(4).toString('hex')}`;
      await adminQuery(url, `CREATE DATABASE ${quoteIdent(name)}`);
      liveShadowDatabases.set(name, url);
      const adapter = await new PrismaPg({ connectionString: withDatabase(url, name) }).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await dropShadowDatabase(name);
      };
      return patchAdapter(adapter);
    },
  };
}

// Pitfall 1: the engine calls the factory's and adapters' methods detached from their objects
// (`Cannot read properties of null (reading 'externalPool')`); adapter-utils' binder binds every
// method and adds the error registry the engine reads JS errors from.
export function bindFactory(factory) {
  return bindMigrationAwareSqlAdapterFactory(factory);
}
