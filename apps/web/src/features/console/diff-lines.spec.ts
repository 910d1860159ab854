import { parseUnified, unifiedLines } from './diff-lines';

describe(unifiedLines.name, () => {
  it('should mark the removed and added lines with their context', () => {
    expect(unifiedLines('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      { type: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { type: 'ctx', text: 'a' },
      { type: 'del', text: 'b' },
      { type: 'add', text: 'B' },
      { type: 'ctx', text: 'c' },
    ]);
  });

  it('should show a created file as all additions', () => {
    expect(unifiedLines('', 'new\n').filter((l) => l.type !== 'hunk')).toEqual([{ type: 'add', text: 'new' }]);
  });
});

describe(parseUnified.name, () => {
  it('should read a unified diff text without its file headers', () => {
    const text = '===================================================================\n--- a/x.txt\n+++ b/x.txt\n@@ -1,1 +1,1 @@\n-old\n+new\n';
    expect(parseUnified(text)).toEqual([
      { type: 'hunk', text: '@@ -1,1 +1,1 @@' },
      { type: 'del', text: 'old' },
      { type: 'add', text: 'new' },
    ]);
  });
});
