'use client';

import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/api-client';
import { filesClient } from './files-client';
import { fuzzyFilter } from './fuzzy';
import type { IdeCommand } from './panels';

export type Picker = 'files' | 'commands' | null;

const keyLabel = (binding: string) => binding.replace('Mod', typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl');

// Quick open (Ctrl/Cmd+P: fuzzy over every file path) and the command palette (Ctrl/Cmd+Shift+P:
// every registered command), one combobox dialog; typing ">" in quick open switches to commands.
export function QuickOpen({ mode, workspaceId, commands, onOpenFile, onRun, onClose }: {
  mode: Exclude<Picker, null>;
  workspaceId: string;
  commands: IdeCommand[];
  onOpenFile: (path: string) => void;
  onRun: (id: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState(mode === 'commands' ? '>' : '');
  const [paths, setPaths] = useState<string[] | null>(null);
  const [truncated, setTruncated] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const isCommands = query.startsWith('>');

  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (isCommands || paths) return;
    const controller = new AbortController();
    filesClient.listAll(workspaceId, controller.signal).then(
      (tree) => {
        setPaths(tree.entries.filter((e) => e.type === 'file').map((e) => e.path));
        setTruncated(tree.truncated);
      },
      (err: unknown) => !controller.signal.aborted && setError(`Could not list the files: ${errorMessage(err)}`),
    );
    return () => controller.abort();
  }, [isCommands, paths, workspaceId]);

  const items = useMemo(() => {
    if (isCommands) return fuzzyFilter(query.slice(1), commands, (c) => c.title).map((m) => ({ key: m.item.id, label: m.item.title, hint: m.item.keybinding ? keyLabel(m.item.keybinding) : '', positions: m.positions, pick: () => onRun(m.item.id) }));
    return fuzzyFilter(query, paths ?? [], (p) => p).map((m) => ({ key: m.item, label: m.item, hint: '', positions: m.positions, pick: () => onOpenFile(m.item) }));
  }, [isCommands, query, commands, paths, onRun, onOpenFile]);

  useEffect(() => setIndex(0), [query]);
  const pick = (i: number) => {
    const item = items[i];
    if (!item) return;
    onClose();
    item.pick();
  };

  const label = isCommands ? 'Run a command' : 'Go to a file';
  return (
    <div className="ide-dialog-backdrop ide-quick-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="ide-quick" role="dialog" aria-modal="true" aria-label={label} data-testid="quick-open">
        <input
          ref={input}
          role="combobox"
          aria-expanded="true"
          aria-controls="quick-open-list"
          aria-activedescendant={items[index] ? `quick-${index}` : undefined}
          aria-label={label}
          placeholder={isCommands ? 'Type a command name' : 'Type a file name (">" for commands)'}
          value={query}
          maxLength={200}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose();
            else if (e.key === 'ArrowDown') setIndex((i) => Math.min(items.length - 1, i + 1));
            else if (e.key === 'ArrowUp') setIndex((i) => Math.max(0, i - 1));
            else if (e.key === 'Enter') pick(index);
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        {error ? <p className="form-error ide-pad" role="alert">{error}</p> : null}
        {!isCommands && !paths && !error ? <p className="muted small ide-pad">Listing files…</p> : null}
        <ul id="quick-open-list" role="listbox" aria-label={isCommands ? 'Commands' : 'Files'} className="ide-quick-list">
          {items.map((item, i) => (
            <li key={item.key} id={`quick-${i}`} role="option" aria-selected={i === index} className={i === index ? 'ide-quick-active' : undefined} onMouseEnter={() => setIndex(i)} onClick={() => pick(i)}>
              <span>{highlight(item.label, item.positions)}</span>
              {item.hint ? <kbd>{item.hint}</kbd> : null}
            </li>
          ))}
          {!items.length && (isCommands || paths) ? <li className="muted small ide-pad" role="presentation">Nothing matches.</li> : null}
        </ul>
        {truncated && !isCommands ? <p className="muted small ide-pad">Only the first files of a very large workspace are listed.</p> : null}
      </div>
    </div>
  );
}

function highlight(text: string, positions: number[]): ReactNode {
  if (!positions.length) return text;
  const set = new Set(positions);
  return [...text].map((ch, i) => (set.has(i) ? <mark key={i}>{ch}</mark> : <span key={i}>{ch}</span>));
}
