import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FsService } from './fs.service';
import { PathResolver } from './path-resolver';
import { SearchService } from './search.service';

// The daemon serves every call of a workspace on one event loop: a search must neither run a
// backtracking pattern on it nor wait forever for its child.
describe(SearchService.name, () => {
  let root: string;
  let paths: PathResolver;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'h-search-'));
    const megabyte = Array.from({ length: 16_000 }, () => 'x'.repeat(61)).join('\n');
    writeFileSync(path.join(root, 'big.txt'), `${megabyte}\nthe xxy line\n`);
    writeFileSync(path.join(root, `${'a'.repeat(200)}.txt`), 'x');
    paths = new PathResolver(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const service = (rgPath: string, budgetMs?: number) => new SearchService(paths, new FsService(paths), rgPath, budgetMs);

  it('should grep a megabyte with a catastrophic pattern through GNU grep and find the column on RE2', async () => {
    const res = await service('/nonexistent/rg').grep({ pattern: '(x+x+)+y' });
    expect(res).toEqual({ matches: [{ path: 'big.txt', line: 16001, column: 5, text: 'the xxy line' }], truncated: false });
  });

  it('should match a catastrophic glob in linear time', async () => {
    const res = await service('/nonexistent/rg').find({ pattern: `${'*a'.repeat(30)}*b` });
    expect(res).toEqual({ paths: [], truncated: false });
  });

  it('should kill a search child that runs past the budget and answer truncated', async () => {
    const fake = path.join(root, 'slow-rg.sh');
    writeFileSync(fake, '#!/bin/sh\n[ "$1" = --version ] && exit 0\nexec sleep 30\n');
    chmodSync(fake, 0o755);
    const res = await service(fake, 200).grep({ pattern: 'x' });
    expect(res).toEqual({ matches: [], truncated: true });
  });
});
