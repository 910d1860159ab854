import { fromGitFailure, gitWords } from './scm.exception';

// git's own words (LC_ALL=C, git 2.39 as in the sandbox image) → the answer's code.
describe(fromGitFailure.name, () => {
  it.each([
    ['fatal: not a git repository (or any of the parent directories): .git', {}, 'NOT_A_REPOSITORY', 409],
    ["fatal: Unable to create '/workspace/.git/index.lock': File exists.\n\nAnother git process seems to be running", {}, 'GIT_CONFLICT', 409],
    ['error: Your local changes to the following files would be overwritten by checkout:\n\tREADME.md\nPlease commit your changes or stash them before you switch branches.\nAborting', { refNotFound: true }, 'GIT_CONFLICT', 409],
    ["fatal: invalid reference: nope", { refNotFound: true }, 'GIT_REF_NOT_FOUND', 404],
    ["fatal: pathspec 'gone.txt' did not match any files", {}, 'FILE_NOT_FOUND', 404],
    ["fatal: pathspec 'etc-link/passwd' is beyond a symbolic link", {}, 'PATH_OUTSIDE_WORKSPACE', 400],
    ["fatal: a branch named 'main' already exists", { refNotFound: true }, 'GIT_REFUSED', 409],
  ])('should map %j', (stderr, opts, code, status) => {
    const err = fromGitFailure(stderr, '', opts);
    expect({ code: err.code, status: err.status }).toEqual({ code, status });
  });

  it('should say what to do when there is nothing to commit (git says it on stdout)', () => {
    const err = fromGitFailure('', 'On branch main\nnothing to commit, working tree clean\n');
    expect(err.code).toBe('GIT_REFUSED');
    expect(err.message).toMatch(/stage the changes/);
  });

  it('should keep git\'s words without prefixes and hints', () => {
    expect(gitWords("hint: try this\nfatal: a branch named 'x' already exists\n")).toBe("a branch named 'x' already exists");
  });
});
