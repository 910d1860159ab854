import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The README's layout table is where a newcomer looks first: one row per app and library, and no
// row for a folder that is gone.
const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('\n## ', readme.indexOf('## Layout') + 1));
const rows = [...layout.matchAll(/^\| `((?:apps|libs)\/[^`]+)` \|/gm)].map((m) => m[1]);
const dirs = ['apps', 'libs'].flatMap((top) =>
  readdirSync(join(root, top))
    .filter((name) => statSync(join(root, top, name)).isDirectory())
    .map((name) => `${top}/${name}`),
);

describe('README layout table', () => {
  it('should have one row per app and library', () => {
    expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([]);
    expect(dirs.filter((dir) => !rows.includes(dir))).toEqual([]);
  });

  it('should name no folder that does not exist', () => {
    expect(rows.filter((row) => !dirs.includes(row))).toEqual([]);
  });
});
