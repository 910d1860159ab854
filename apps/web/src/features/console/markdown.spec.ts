import { parseInline, parseMarkdown } from './markdown';

describe(parseMarkdown.name, () => {
  it('should read the headings, lists and code spans of an agent summary', () => {
    const blocks = parseMarkdown('### Changes Made\n- `src/math.js`: **fixed** add\n- second\n\n### Outcome\nAll good.\n1. one\n2. two');
    expect(blocks).toEqual([
      { kind: 'heading', level: 3, inlines: [{ kind: 'text', text: 'Changes Made' }] },
      {
        kind: 'list',
        ordered: false,
        items: [
          [
            { kind: 'code', text: 'src/math.js' },
            { kind: 'text', text: ': ' },
            { kind: 'strong', text: 'fixed' },
            { kind: 'text', text: ' add' },
          ],
          [{ kind: 'text', text: 'second' }],
        ],
      },
      { kind: 'heading', level: 3, inlines: [{ kind: 'text', text: 'Outcome' }] },
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'All good.' }] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] },
    ]);
  });

  it('should keep HTML in the input as plain text when it is not markdown', () => {
    const blocks = parseMarkdown('<img src=x onerror=alert(1)> and <script>x</script>');
    expect(blocks).toEqual([{ kind: 'paragraph', inlines: [{ kind: 'text', text: '<img src=x onerror=alert(1)> and <script>x</script>' }] }]);
  });

  it('should keep fenced code verbatim, markdown included', () => {
    expect(parseMarkdown('```js\n# not a heading\n- not a list\n```\nafter')).toEqual([
      { kind: 'code', text: '# not a heading\n- not a list' },
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'after' }] },
    ]);
  });

  it('should treat an unmatched backtick as text', () => {
    expect(parseInline('a ` b')).toEqual([{ kind: 'text', text: 'a ` b' }]);
  });
});
