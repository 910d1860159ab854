import { ArchiveError, safeEntryPath } from './archive-normalizer';

describe(safeEntryPath.name, () => {
  it('should keep paths inside the workspace, without "." segments', () => {
    expect(safeEntryPath('./src/app.ts')).toBe('src/app.ts');
    expect(safeEntryPath('src//lib/')).toBe('src/lib');
    expect(safeEntryPath('docs/link', '../README.md')).toBe('docs/link');
    expect(safeEntryPath('a/b/link', '../../c')).toBe('a/b/link');
  });

  it.each([
    ['..', '../evil', undefined],
    ['.. in the middle', 'a/../../evil', undefined],
    ['an absolute path', '/etc/passwd', undefined],
    ['a Windows drive', 'C:/x', undefined],
    ['backslashes climbing', '..\\evil', undefined],
    ['a link to an absolute path', 'etc', '/etc'],
    ['a link climbing out', 'a/link', '../../x'],
    ['a link climbing through another name', 'link', 'sub/../..'],
  ])('should refuse %s', (_what, name, link) => {
    expect(() => safeEntryPath(name, link)).toThrow(ArchiveError);
  });
});
