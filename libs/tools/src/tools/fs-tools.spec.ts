import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createToolKit, type ToolKit } from '../testing/tool-test-kit';
import { READ_FILE_BUDGET_BYTES } from './read-file.tool';

describe('filesystem tools', () => {
  let kit: ToolKit;
  beforeEach(() => {
    kit = createToolKit();
    mkdirSync(join(kit.dir, 'src'));
    writeFileSync(join(kit.dir, 'src/sum.js'), 'function sum(a, b) {\n  return a - b;\n}\nmodule.exports = sum;\n');
    writeFileSync(join(kit.dir, '.env'), 'API_KEY=sk-live');
    mkdirSync(join(kit.dir, 'config'));
    writeFileSync(join(kit.dir, 'config/api-keys.json'), '{}');
    writeFileSync(join(kit.dir, 'server.pem'), 'KEY');
  });
  afterEach(() => kit.cleanup());

  describe('read_file', () => {
    it('should return numbered lines when the file exists', async () => {
      const res = await kit.call('read_file', { path: 'src/sum.js' });
      expect(res).toMatchObject({ text: '1\tfunction sum(a, b) {\n2\t  return a - b;\n3\t}\n4\tmodule.exports = sum;' });
      expect(res.isError).toBeFalsy();
    });
    it('should page with offset and limit and say how to read on', async () => {
      const res = await kit.call('read_file', { path: '/workspace/src/sum.js', offset: 2, limit: 1 });
      expect(res.text).toBe('2\t  return a - b;\n(lines 2-2 of 4; call read_file with offset=3 to read on)');
    });
    it('should page a long file by line within a byte budget and read it whole, page by page', async () => {
      const source = Array.from({ length: 1532 }, (_, i) => `export const value${i + 1} = ${'x'.repeat(40)};`);
      writeFileSync(join(kit.dir, 'big.ts'), `${source.join('\n')}\n`);
      const first = await kit.call('read_file', { path: 'big.ts' });
      // Whole numbered lines from the top, no head-and-tail cut, and the way on.
      const shown = first.text.split('\n').slice(0, -1);
      expect(shown.map((l) => l.split('\t')[1])).toEqual(source.slice(0, shown.length));
      expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(READ_FILE_BUDGET_BYTES + 200);
      expect(first.text.split('\n').at(-1)).toBe(`(lines 1-${shown.length} of 1,532, 20 KB per call; call read_file with offset=${shown.length + 1} to read on)`);
      // Following the hints reads every line exactly once.
      const seen: string[] = [];
      for (let offset = 1, calls = 0; offset <= 1532 && calls < 20; calls++) {
        const page = await kit.call('read_file', { path: 'big.ts', offset });
        const body = page.text.split('\n').filter((l) => /^\d+\t/.test(l));
        seen.push(...body.map((l) => l.split('\t')[1]));
        const next = /offset=(\d+)/.exec(page.text.split('\n').at(-1) ?? '');
        offset = next ? Number(next[1]) : 1533;
      }
      expect(seen).toEqual(source);
      expect(await kit.call('read_file', { path: 'big.ts', offset: 2000 })).toMatchObject({ isError: true, text: 'big.ts has 1,532 lines; offset 2,000 is past the end' });
    });
    it('should list a directory when given one', async () => {
      expect((await kit.call('read_file', { path: 'src' })).text).toBe('src/sum.js');
    });
    it('should fail for a missing file, a path outside and a secret file', async () => {
      expect(await kit.call('read_file', { path: 'nope.js' })).toMatchObject({ isError: true, text: expect.stringContaining('NOT_FOUND') });
      expect(await kit.call('read_file', { path: '../../etc/passwd' })).toMatchObject({ isError: true, text: expect.stringContaining('PATH_OUTSIDE_WORKSPACE') });
      for (const path of ['.env', 'config/api-keys.json', 'server.pem', '/workspace/.env']) {
        expect(await kit.call('read_file', { path })).toMatchObject({ isError: true, text: expect.stringContaining('protected secret file') });
      }
    });
    it('should refuse a symlink that points out of the workspace', async () => {
      symlinkSync('/etc/hostname', join(kit.dir, 'host'));
      expect(await kit.call('read_file', { path: 'host' })).toMatchObject({ isError: true, text: expect.stringContaining('PATH_OUTSIDE_WORKSPACE') });
    });
    it('should reject arguments that do not match the schema', async () => {
      expect(await kit.call('read_file', { file: 'x' })).toMatchObject({ isError: true, text: expect.stringContaining('Invalid arguments for read_file') });
      expect(await kit.registry.run('read_file', '{"path":', kit.ctx)).toMatchObject({ isError: true, text: expect.stringContaining('Invalid JSON') });
    });
  });

  describe('write_file', () => {
    it('should create parents and report created vs overwritten', async () => {
      expect((await kit.call('write_file', { path: 'lib/new/a.txt', content: 'x\ny\n' })).text).toBe('Created lib/new/a.txt (2 lines)');
      expect((await kit.call('write_file', { path: 'lib/new/a.txt', content: 'z' })).text).toBe('Overwrote lib/new/a.txt (1 line)');
      expect(readFileSync(join(kit.dir, 'lib/new/a.txt'), 'utf8')).toBe('z');
    });
    it('should refuse secrets, directories and paths outside', async () => {
      expect(await kit.call('write_file', { path: '.env.local', content: 'x' })).toMatchObject({ isError: true });
      expect(existsSync(join(kit.dir, '.env.local'))).toBe(false);
      expect(await kit.call('write_file', { path: 'src', content: 'x' })).toMatchObject({ isError: true, text: expect.stringContaining('IS_DIRECTORY') });
      expect(await kit.call('write_file', { path: '/tmp/escape.txt', content: 'x' })).toMatchObject({ isError: true, text: expect.stringContaining('PATH_OUTSIDE') });
    });
  });

  describe('edit_file', () => {
    it('should replace one exact occurrence and name the line', async () => {
      const res = await kit.call('edit_file', { path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' });
      expect(res.text).toBe('Edited src/sum.js (line 2)');
      expect(readFileSync(join(kit.dir, 'src/sum.js'), 'utf8')).toContain('return a + b;');
    });
    it('should replace every occurrence with replace_all', async () => {
      writeFileSync(join(kit.dir, 'x.txt'), 'a a a');
      expect((await kit.call('edit_file', { path: 'x.txt', old_string: 'a', new_string: 'b', replace_all: true })).text).toBe('Edited x.txt (3 occurrences)');
      expect(readFileSync(join(kit.dir, 'x.txt'), 'utf8')).toBe('b b b');
    });
    it('should refuse ambiguous, missing, empty and no-op edits', async () => {
      writeFileSync(join(kit.dir, 'x.txt'), 'a a');
      expect((await kit.call('edit_file', { path: 'x.txt', old_string: 'a', new_string: 'b' })).text).toContain('occurs 2 times');
      expect((await kit.call('edit_file', { path: 'x.txt', old_string: 'zz', new_string: 'b' })).text).toContain('not found');
      expect((await kit.call('edit_file', { path: 'src/sum.js', old_string: 'return  a - b;', new_string: 'x' })).text).toContain('whitespace');
      expect((await kit.call('edit_file', { path: 'x.txt', old_string: '', new_string: 'b' })).text).toContain('empty');
      expect((await kit.call('edit_file', { path: 'x.txt', old_string: 'a', new_string: 'a' })).text).toContain('identical');
      expect((await kit.call('edit_file', { path: 'nope', old_string: 'a', new_string: 'b' })).text).toContain('NOT_FOUND');
      expect((await kit.call('edit_file', { path: '.env', old_string: 'A', new_string: 'B' })).isError).toBe(true);
      expect(readFileSync(join(kit.dir, 'x.txt'), 'utf8')).toBe('a a');
    });
    it('should keep $ patterns in new_string literal', async () => {
      await kit.call('edit_file', { path: 'src/sum.js', old_string: 'a - b', new_string: "'$&' + a" });
      expect(readFileSync(join(kit.dir, 'src/sum.js'), 'utf8')).toContain("return '$&' + a;");
    });
  });

  describe('list_files', () => {
    it('should hide secret files and the contents of node_modules', async () => {
      mkdirSync(join(kit.dir, 'node_modules/pkg'), { recursive: true });
      writeFileSync(join(kit.dir, 'node_modules/pkg/index.js'), '');
      expect((await kit.call('list_files', {})).text).toBe('config/\nnode_modules/\nsrc/');
      expect((await kit.call('list_files', { recursive: true })).text).toBe('config/\nnode_modules/\nsrc/\nsrc/sum.js');
    });
    it('should fail for a file or a missing directory', async () => {
      expect((await kit.call('list_files', { path: 'src/sum.js' })).text).toContain('NOT_DIRECTORY');
      expect((await kit.call('list_files', { path: 'nope' })).text).toContain('NOT_FOUND');
    });
  });

  describe('search_files', () => {
    it('should find by substring or glob and hide secrets', async () => {
      expect((await kit.call('search_files', { pattern: 'SUM' })).text).toBe('src/sum.js');
      expect((await kit.call('search_files', { pattern: '*.pem' })).text).toBe('No files match "*.pem"');
      expect((await kit.call('search_files', { pattern: 'env' })).text).toBe('No files match "env"');
    });
  });

  describe('grep', () => {
    it('should return path:line matches and hide secret files', async () => {
      writeFileSync(join(kit.dir, 'src/key.txt'), 'API_KEY used here');
      const res = await kit.call('grep', { pattern: 'API_KEY' });
      expect(res.text).toBe('src/key.txt:1: API_KEY used here');
      expect((await kit.call('grep', { pattern: 'RETURN', ignore_case: true, include: '*.js' })).text).toBe('src/sum.js:2: return a - b;');
      expect((await kit.call('grep', { pattern: 'nothing-like-this' })).text).toBe('No matches');
    });
    it('should report an invalid regex and refuse a secret path', async () => {
      expect(await kit.call('grep', { pattern: '(' })).toMatchObject({ isError: true, text: expect.stringContaining('invalid regex') });
      expect((await kit.call('grep', { pattern: 'x', path: '.env' })).isError).toBe(true);
    });
  });

  describe('create_directory, rename_file, delete_file', () => {
    it('should create, move and delete recursively', async () => {
      expect((await kit.call('create_directory', { path: 'a/b' })).text).toBe('Created directory a/b');
      expect((await kit.call('rename_file', { old_path: 'src/sum.js', new_path: 'a/b/sum.js' })).text).toBe('Renamed src/sum.js to a/b/sum.js');
      expect(existsSync(join(kit.dir, 'a/b/sum.js'))).toBe(true);
      expect((await kit.call('delete_file', { path: 'a' })).text).toBe('Deleted directory a');
      expect(existsSync(join(kit.dir, 'a'))).toBe(false);
    });
    it('should refuse secrets, clobbering, missing sources and the root', async () => {
      expect((await kit.call('rename_file', { old_path: '.env', new_path: 'env.txt' })).isError).toBe(true);
      expect((await kit.call('rename_file', { old_path: 'src/sum.js', new_path: 'secret.json' })).isError).toBe(true);
      writeFileSync(join(kit.dir, 'other.js'), '');
      expect((await kit.call('rename_file', { old_path: 'other.js', new_path: 'src/sum.js' })).text).toContain('ALREADY_EXISTS');
      expect((await kit.call('rename_file', { old_path: 'nope', new_path: 'x' })).text).toContain('NOT_FOUND');
      expect((await kit.call('delete_file', { path: 'server.pem' })).isError).toBe(true);
      expect((await kit.call('delete_file', { path: '.' })).isError).toBe(true);
      expect((await kit.call('delete_file', { path: '../' })).text).toContain('PATH_OUTSIDE');
      expect((await kit.call('create_directory', { path: 'src/sum.js' })).text).toContain('ALREADY_EXISTS');
      expect(existsSync(join(kit.dir, 'server.pem'))).toBe(true);
    });
  });
});
