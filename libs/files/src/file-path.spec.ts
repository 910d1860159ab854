import { AppException } from '@h/http';
import { normalizeEntryPath, normalizeFilePath } from './file-path';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof AppException ? e.code : 'other';
  }
}

describe(normalizeFilePath.name, () => {
  it('should keep relative paths and drop empty and "." segments', () => {
    expect(normalizeFilePath('src/a.ts')).toBe('src/a.ts');
    expect(normalizeFilePath('a//b/./c/')).toBe('a/b/c');
    expect(normalizeFilePath('')).toBe('');
    expect(normalizeFilePath(undefined)).toBe('');
    expect(normalizeFilePath('.')).toBe('');
    expect(normalizeFilePath('..a/b..')).toBe('..a/b..');
  });

  it('should refuse "..", absolute paths and NUL with 400', () => {
    expect(codeOf(() => normalizeFilePath('../etc/passwd'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(codeOf(() => normalizeFilePath('a/../../b'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(codeOf(() => normalizeFilePath('a/..'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(codeOf(() => normalizeFilePath('/etc/passwd'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(codeOf(() => normalizeFilePath('/workspace/a'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(codeOf(() => normalizeFilePath('a\0b'))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => normalizeFilePath('x'.repeat(5000)))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => normalizeFilePath(42))).toBe('VALIDATION_FAILED');
  });

  it('should refuse the root where an entry is needed', () => {
    expect(codeOf(() => normalizeEntryPath(''))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => normalizeEntryPath('./'))).toBe('VALIDATION_FAILED');
    expect(normalizeEntryPath('a')).toBe('a');
  });
});
