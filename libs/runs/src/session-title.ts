/**
 * A session's title from its first message, deterministically: no extra model request (the dsh
 * host spent one on titles). First non-empty line, markdown markers dropped, cut at a word.
 */
export function titleFromMessage(content: string, max = 60): string {
  const line =
    content
      .split('\n')
      .map((l) => l.replace(/^[#>*\-\s`]+/, '').replace(/[`*_]+/g, '').trim())
      .find((l) => l.length > 0) ?? '';
  if (!line) return 'Untitled session';
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '') + '…';
}
