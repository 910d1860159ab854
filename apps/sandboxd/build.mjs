// Bundles sandboxd into one file with esbuild and stages node-pty next to it:
//   node apps/sandboxd/build.mjs OUT_DIR   ->  OUT_DIR/sandboxd.js, OUT_DIR/node_modules/node-pty/...
// node-pty is native and cannot be bundled. It uses N-API, so the module built by the host's
// `npm ci` (Debian bookworm, same glibc as the image) loads under the image's Node 22 unchanged;
// only its runtime files are copied (lib/, build/Release/pty.node, package.json).
// playwright-core (the browser service) stays external too: it loads its own files at runtime
// (protocol definitions, injected scripts, the server side of its client) by path, so it is copied
// whole (~9 MB, no dependencies of its own) rather than bundled.
// typescript (the knowledge graph's parser) stays external as well: bundling its 9 MB CommonJS file
// gains nothing, and only lib/typescript.js and package.json are needed at runtime (no lib.d.ts:
// the graph parses syntax, it never type-checks).
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const out = resolve(process.argv[2] ?? join(repo, 'dist/sandboxd'));
const ptyDir = join(repo, 'node_modules/node-pty');
const ptyVersion = JSON.parse(readFileSync(join(ptyDir, 'package.json'), 'utf8')).version;
const pwDir = join(repo, 'node_modules/playwright-core');
const pwVersion = JSON.parse(readFileSync(join(pwDir, 'package.json'), 'utf8')).version;
const tsDir = join(repo, 'node_modules/typescript');
const tsVersion = JSON.parse(readFileSync(join(tsDir, 'package.json'), 'utf8')).version;

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'src/main.ts')],
  outfile: join(out, 'sandboxd.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['node-pty', 'playwright-core', 'typescript'],
  tsconfig: join(repo, 'tsconfig.base.json'),
  define: { SANDBOXD_VERSION: JSON.stringify(`2-pty${ptyVersion}-pw${pwVersion}-ts${tsVersion}`) },
  legalComments: 'none',
  logLevel: 'warning',
});

const ptyOut = join(out, 'node_modules/node-pty');
const native = join(ptyDir, 'build/Release/pty.node');
if (!existsSync(native)) {
  console.error(`node-pty is not built (${native} missing): run npm ci with install scripts approved`);
  process.exit(1);
}
rmSync(ptyOut, { recursive: true, force: true });
mkdirSync(join(ptyOut, 'build/Release'), { recursive: true });
cpSync(join(ptyDir, 'lib'), join(ptyOut, 'lib'), { recursive: true, filter: (p) => !p.endsWith('.test.js') && !p.endsWith('.map') });
cpSync(native, join(ptyOut, 'build/Release/pty.node'));
cpSync(join(ptyDir, 'package.json'), join(ptyOut, 'package.json'));
const pwOut = join(out, 'node_modules/playwright-core');
rmSync(pwOut, { recursive: true, force: true });
cpSync(pwDir, pwOut, { recursive: true, filter: (p) => !p.endsWith('.map') && !p.endsWith('.d.ts') });
const tsOut = join(out, 'node_modules/typescript');
rmSync(tsOut, { recursive: true, force: true });
mkdirSync(join(tsOut, 'lib'), { recursive: true });
cpSync(join(tsDir, 'lib/typescript.js'), join(tsOut, 'lib/typescript.js'));
cpSync(join(tsDir, 'package.json'), join(tsOut, 'package.json'));
writeFileSync(join(out, 'package.json'), JSON.stringify({ name: 'sandboxd', private: true, main: 'sandboxd.js' }, null, 2) + '\n');
