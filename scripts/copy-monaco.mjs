#!/usr/bin/env node
// Copies Monaco's prebuilt AMD bundle (node_modules/monaco-editor/min/vs) into the web app's
// public folder, where the IDE loads it from (/monaco/vs): no CDN, works offline. The copy is
// build output (gitignored) and is refreshed when the installed monaco-editor version changes.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const source = join(root, 'node_modules/monaco-editor/min/vs');
const target = join(root, 'apps/web/public/monaco/vs');
const stamp = join(root, 'apps/web/public/monaco/.version');
const version = JSON.parse(readFileSync(join(root, 'node_modules/monaco-editor/package.json'), 'utf8')).version;

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version && existsSync(join(target, 'loader.js'))) process.exit(0);
rmSync(join(root, 'apps/web/public/monaco'), { recursive: true, force: true });
cpSync(source, target, { recursive: true });
writeFileSync(stamp, version + '\n');
