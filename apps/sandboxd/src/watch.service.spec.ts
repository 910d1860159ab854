import { isGitStateChange } from './watch.service';

describe(isGitStateChange.name, () => {
  it.each([
    ['.git/HEAD', true],
    ['.git/index', true],
    ['.git/refs/heads/main', true],
    ['.git/refs/remotes/origin/main', true],
    ['.git/packed-refs', true],
    ['.git/MERGE_HEAD', true],
    ['.git/rebase-merge/done', true],
    ['.git/index.lock', false],
    ['.git/refs/heads/main.lock', false],
    ['.git/objects/ab/cdef', false],
    ['.git/logs/HEAD', false],
    ['src/.git/HEAD', false],
    ['HEAD', false],
    ['.gitignore', false],
  ])('%s -> %s', (rel, want) => expect(isGitStateChange(rel)).toBe(want));
});
