#!/usr/bin/env node
// Stand-in for Prisma's native `schema-engine` binary, which Prisma's CLI downloads from a host these
// machines cannot reach. The CLI runs whatever PRISMA_SCHEMA_ENGINE_BINARY names (prisma-cli.mjs sets
// it to this file) and talks to it the way it talks to the binary:
//   schema-engine --version
//   schema-engine --datasource JSON cli can-connect-to-database | create-database | drop-database
//   schema-engine [--datamodels FILE]... [--datasource JSON]   then JSON-RPC 2.0, one message a line
// Every RPC is answered by Prisma's own Wasm build of the engine (@prisma/schema-engine-wasm), which
// reaches Postgres through @prisma/adapter-pg (pg-adapter-factory.mjs). The work-arounds are the
// pitfalls listed in prisma/README.md, each marked "pitfall N".
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import {
  adminQuery,
  bindFactory,
  checkConnection,
  connectionError,
  createAdapterFactory,
  describeUrl,
  dropLiveShadowDatabases,
  quoteIdent,
} from './pg-adapter-factory.mjs';

const require = createRequire(import.meta.url);
const NO_FILTER = { externalTables: [], externalEnums: [] };
const RPC_ERROR = { code: 4466, message: 'An error happened. Check the data field for details.' };

function parseArgs(argv) {
  const args = { datamodels: [], datasource: {}, cli: null, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--version' || arg === '-V') args.version = true;
    else if (arg === '--datamodels') args.datamodels.push(argv[++i]);
    else if (arg === '--datasource') args.datasource = JSON.parse(argv[++i]);
    else if (arg === '--enabled-preview-features' || arg === '--extension-types') i++;
    else if (arg === 'cli') args.cli = argv[++i];
  }
  return args;
}

// Logs in the native engine's format: the CLI reads stderr as JSON lines and keeps the last ERROR.
function log(level, message, extra = {}) {
  const line = { timestamp: new Date().toISOString(), level, fields: { message, ...extra }, target: 'schema_engine::logger' };
  process.stderr.write(JSON.stringify(line) + '\n');
}

// `prisma migrate dev` / `db push` run the binary this way to check for, and create, the database.
async function runCliCommand(command, url) {
  // The CLI skips the first stderr line (the native binary's start-up line) when it reads errors.
  log('INFO', 'Starting schema engine CLI (offline Wasm shim)');
  const fail = ({ code, message }) => {
    log('ERROR', message, { error_code: code });
    process.exitCode = 1;
  };
  if (!url) return fail({ code: 'P1012', message: 'No datasource URL given: set datasource.url in prisma.config.ts (DATABASE_URL).' });
  const { database } = describeUrl(url);
  if (command === 'can-connect-to-database') {
    const problem = await checkConnection(url);
    if (problem) fail(problem);
  } else if (command === 'create-database') {
    await adminQuery(url, `CREATE DATABASE ${quoteIdent(database)}`).then(
      () => log('INFO', `Database '${database}' was successfully created.`),
      (error) => fail(error.code === '42P04' ? { code: 'P1009', message: `Database \`${database}\` already exists` } : connectionError(url, error)),
    );
  } else if (command === 'drop-database') {
    await adminQuery(url, `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`).catch((error) => fail(connectionError(url, error)));
  } else {
    fail({ code: 'P1000', message: `Unknown schema-engine cli command: ${command}` });
  }
}

async function loadWasmEngine() {
  // Pitfall 5: the Wasm panic hook reports through this global; without it a panic surfaces as a
  // TypeError about the registry instead of the panic message.
  globalThis.PRISMA_WASM_PANIC_REGISTRY = {
    message: null,
    set_message(message) {
      this.message = message;
    },
  };
  // The package entry does `import * as wasm from "./x.wasm"` (needs --experimental-wasm-modules),
  // so instantiate the module by hand against its JS glue.
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const glue = await import(gluePath);
  const module = new WebAssembly.Module(readFileSync(gluePath.replace(/\.js$/, '.wasm')));
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue;
}

// Errors from the Wasm engine carry a name and a message but no Prisma error code; restore the
// codes of the user-facing errors scripts commonly check.
const KNOWN_ERRORS = [
  [/^The database schema is not empty/, 'P3005'],
  [/^migrate found failed migrations/, 'P3009'],
];

// A JS error thrown inside the adapter reaches us as "External error id#N"; the binder's registry
// holds the original.
function describeError(error, boundFactory) {
  const text = String(error?.message ?? error);
  const id = /External error id#(\d+)/.exec(text)?.[1];
  const original = id !== undefined ? boundFactory?.errorRegistry?.consumeError(Number(id))?.error : undefined;
  return original ? String(original.message ?? original) : text;
}

function toRpcError(error, panicMessage, boundFactory) {
  if (panicMessage) {
    return { ...RPC_ERROR, data: { is_panic: true, message: panicMessage, error: { message: panicMessage }, meta: {} } };
  }
  const full = describeError(error, boundFactory);
  // Drop the Rust span trace ("   0: sql_schema_connector::...") unless debugging.
  const message = process.env.PRISMA_SCHEMA_ENGINE_SHIM_DEBUG
    ? full
    : full.split(/\n\s+0: /)[0].replace(/^external connector error\n/, '').trimEnd();
  // A migration script that fails names itself only in the span trace; say which one, as the
  // native engine's P3018 does.
  const failedMigration = /apply_migrations::Applying migration[\s\S]*?migration_name="([^"]+)"/.exec(full)
    ?? /migration_name="([^"]+)"[\s\S]*apply_migrations::Applying migration/.exec(full);
  if (failedMigration) {
    const text = `A migration failed to apply. New migrations cannot be applied before the error is recovered from. Read more about how to resolve migration issues in a production database: https://pris.ly/d/migrate-resolve\n\nMigration name: ${failedMigration[1]}\n\nDatabase error:\n${message}`;
    return { ...RPC_ERROR, data: { is_panic: false, message: text, meta: { migration_name: failedMigration[1] }, error_code: 'P3018' } };
  }
  const errorCode = KNOWN_ERRORS.find(([pattern]) => pattern.test(message))?.[1];
  return { ...RPC_ERROR, data: { is_panic: false, message, meta: {}, ...(errorCode ? { error_code: errorCode } : {}) } };
}

async function serve({ datamodels, datasource }) {
  let startupError = null;
  const wasm = await loadWasmEngine();
  const boundFactory = bindFactory(createAdapterFactory(datasource)); // pitfall 1
  const files = datamodels.map((path) => [path, readFileSync(path, 'utf8')]);
  const engine = await wasm.SchemaEngine.new(
    // Pitfall 5: no schema files means no list at all; an empty list makes the engine panic.
    { datamodels: files.length > 0 ? files : undefined },
    // The engine's log lines already have the native JSON format; pass them on to the CLI.
    (line) => process.stderr.write(String(line).trimEnd() + '\n'),
    boundFactory,
  ).catch((error) => {
    // Stay up and answer every request with this error: if the engine exited now, the CLI would
    // wait for an answer that never comes and end with status 0 and no message.
    startupError = new Error(describeError(error, boundFactory));
    log('ERROR', startupError.message);
    return null;
  });

  const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
  let nextOwnId = 1;
  const awaitingAck = new Map();
  // Asks the CLI to print something and waits for its acknowledgement, as the native engine does.
  const print = (content) =>
    new Promise((resolve) => {
      const id = `shim-${nextOwnId++}`;
      awaitingAck.set(id, resolve);
      send({ jsonrpc: '2.0', id, method: 'print', params: { content } });
    });

  // Pitfall 4: evaluateDataLoss (and createMigration) fail with `shadow DB must be provided
  // through an external factory` until a devDiagnostic has run on this engine against a database
  // whose migration history is applied. The CLI's own devDiagnostic runs before it applies pending
  // migrations (fresh database: devDiagnostic -> applyMigrations -> evaluateDataLoss), so on that
  // error run one more devDiagnostic and retry once.
  const SHADOW_NOT_READY = /shadow DB must be provided through an external factory/;
  const withShadowFactory = async (params, call) => {
    try {
      return await call();
    } catch (error) {
      if (!SHADOW_NOT_READY.test(String(error?.message)) || !params.migrationsList) throw error;
      await engine.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters ?? NO_FILTER });
      return call();
    }
  };
  const handlers = {
    evaluateDataLoss: (params) => withShadowFactory(params, () => engine.evaluateDataLoss(params)),
    createMigration: (params) => withShadowFactory(params, () => engine.createMigration(params)),
    async diff(params) {
      // Pitfall 5: the Wasm engine returns the diff; the binary prints it through the CLI (which
      // is also how `--output FILE` captures it).
      const result = await engine.diff(params);
      if (result.stdout) await print(result.stdout);
      return { exitCode: result.exitCode };
    },
    async createDatabase(params) {
      const url = params?.datasource?.url ?? datasource.url;
      const { database } = describeUrl(url);
      await adminQuery(url, `CREATE DATABASE ${quoteIdent(database)}`);
      return { databaseName: database };
    },
    getDatabaseVersion: (params) => engine.version(params ?? null),
  };
  const passThrough = [
    'applyMigrations', 'dbExecute', 'debugPanic', 'devDiagnostic', 'diagnoseMigrationHistory', 'ensureConnectionValidity',
    'introspect', 'introspectSql', 'markMigrationApplied', 'markMigrationRolledBack', 'reset', 'schemaPush',
  ];
  for (const method of passThrough) handlers[method] = (params) => engine[method](params);

  const handle = async ({ id, method, params }) => {
    if (!Object.hasOwn(handlers, method)) {
      const message = `The offline schema engine does not implement \`${method}\`.`;
      send({ jsonrpc: '2.0', id, error: { code: -32601, message, data: { is_panic: false, message, meta: {} } } });
      return;
    }
    globalThis.PRISMA_WASM_PANIC_REGISTRY.message = null;
    try {
      if (startupError) throw startupError;
      const result = await handlers[method](params ?? {});
      send({ jsonrpc: '2.0', id, result: result ?? {} });
    } catch (error) {
      send({ jsonrpc: '2.0', id, error: toRpcError(error, globalThis.PRISMA_WASM_PANIC_REGISTRY.message, boundFactory) });
    }
  };

  // Requests run one at a time, in order, like the native engine's request loop.
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    if (message.method === undefined && awaitingAck.has(message.id)) {
      awaitingAck.get(message.id)();
      awaitingAck.delete(message.id);
      return;
    }
    queue = queue.then(() => handle(message));
  });
  lines.on('close', () => queue.then(() => shutdown(0)));
}

// The CLI ends stdin and sends SIGTERM straight away when it is done; leave no shadow database.
let shuttingDown = false;
async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  await dropLiveShadowDatabases();
  process.exit(code);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.version) {
    const wasm = await loadWasmEngine();
    process.stdout.write(`schema-engine-cli ${wasm.version()}\n`);
  } else if (args.cli) {
    await runCliCommand(args.cli, args.datasource.url);
  } else {
    for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => shutdown(0));
    await serve(args);
  }
}

main().catch((error) => {
  log('ERROR', String(error?.message ?? error));
  shutdown(1);
});
