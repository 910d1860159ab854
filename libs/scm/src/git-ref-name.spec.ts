import { AppException } from '@h/http';
import { branchNameProblem, validBranchName, validStartPoint } from './git-ref-name';

describe('branchNameProblem', () => {
  it.each(['main', 'feature/login', 'fix-1.2', 'user@team', 'a/b/c', 'release_2026'])('should accept %s', (name) => {
    expect(branchNameProblem(name)).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['-f', /start with "-"/],
    ['a..b', /".."/],
    ['a b', /spaces/],
    ['a\tb', /control/],
    ['main~1', /"~"/],
    ['a^', /"\^"/],
    ['a:b', /":"/],
    ['a?', /"\?"/],
    ['a*', /"\*"/],
    ['a[b', /"\["/],
    ['a\\b', /"\\"/],
    ['main@{1}', /"@\{"/],
    ['/a', /"\/"/],
    ['a/', /"\/"/],
    ['a//b', /"\/\/"/],
    ['a.', /end with "\."/],
    ['.hidden', /start with "\."/],
    ['a/.b', /start with "\."/],
    ['x.lock', /\.lock/],
    ['a/x.lock/b', /\.lock/],
    ['@', /reserved/],
    ['HEAD', /reserved/],
    ['x'.repeat(201), /longer than 200/],
  ])('should refuse %j', (name, why) => {
    expect(branchNameProblem(name)).toMatch(why);
  });
});

describe('validBranchName', () => {
  it('should throw 400 INVALID_REF_NAME naming the rule when the name is bad', () => {
    try {
      validBranchName('bad name');
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(AppException);
      expect((err as AppException).code).toBe('INVALID_REF_NAME');
      expect((err as AppException).status).toBe(400);
      expect((err as AppException).message).toMatch(/"bad name" is not a valid branch name: it may not contain spaces/);
    }
  });

  it('should take commit hashes and HEAD as start points', () => {
    expect(validStartPoint('a1b2c3d')).toBe('a1b2c3d');
    expect(validStartPoint('HEAD')).toBe('HEAD');
    expect(validStartPoint('origin/main')).toBe('origin/main');
    expect(() => validStartPoint('HEAD~1')).toThrow(AppException);
  });
});
