import { Fragment } from 'react';
import { type Inline, parseMarkdown } from './markdown';

// Every piece of text is a React text node: markup in the input is shown, never interpreted.
function Inlines({ inlines }: { inlines: Inline[] }) {
  return (
    <>
      {inlines.map((inline, i) =>
        inline.kind === 'code' ? (
          <code key={i}>{inline.text}</code>
        ) : inline.kind === 'strong' ? (
          <strong key={i}>{inline.text}</strong>
        ) : (
          <Fragment key={i}>{inline.text}</Fragment>
        ),
      )}
    </>
  );
}

export function MarkdownView({ source, className }: { source: string; className?: string }) {
  const blocks = parseMarkdown(source);
  return (
    <div className={`markdown ${className ?? ''}`}>
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'heading': {
            // Headings inside the transcript sit below the page's h2/h3.
            const Tag = (['h3', 'h4', 'h5', 'h6'] as const)[block.level - 1];
            return (
              <Tag key={i}>
                <Inlines inlines={block.inlines} />
              </Tag>
            );
          }
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            return (
              <List key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>
                    <Inlines inlines={item} />
                  </li>
                ))}
              </List>
            );
          }
          case 'code':
            return (
              <pre key={i} className="code-block">
                {block.text}
              </pre>
            );
          default:
            return (
              <p key={i}>
                <Inlines inlines={block.inlines} />
              </p>
            );
        }
      })}
    </div>
  );
}
