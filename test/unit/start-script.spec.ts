import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeStartCommand } from '../newcomer/fresh-clone';

// The start path's cheap parts, checked without a clone (the newcomer tier runs the whole of it).
const root = join(__dirname, '..', '..');

describe('scripts/lib.sh missing_deps', () => {
  let dir: string;
  const missing = () =>
    spawnSync('bash', ['-c', `source "${root}/scripts/lib.sh"; ROOT="${dir}"; missing_deps`], { encoding: 'utf8' }).stdout.trim();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'h-deps-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { a: '1' }, devDependencies: { typescript: '5', '@types/node': '20' } }));
    for (const name of ['a', 'typescript', '@types/node']) {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true });
      writeFileSync(join(dir, 'node_modules', name, 'package.json'), '{}');
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should report nothing for a complete install', () => {
    expect(missing()).toBe('');
  });

  it('should name the dev packages an install without them lacks (npm ci under NODE_ENV=production)', () => {
    rmSync(join(dir, 'node_modules/typescript'), { recursive: true });
    rmSync(join(dir, 'node_modules/@types'), { recursive: true });
    expect(missing()).toBe('typescript @types/node');
  });
});

describe('README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('should open with the start command, then the test command, nothing fenced before them', () => {
    expect(readmeStartCommand(readme)).toBe('bash scripts/start.sh');
    const blocks = [...readme.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1].trim());
    expect(blocks.slice(0, 2)).toEqual(['bash scripts/start.sh', 'bash scripts/test.sh']);
  });
});
