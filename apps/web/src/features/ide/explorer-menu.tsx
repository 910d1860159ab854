'use client';

import { useEffect, useRef } from 'react';

export interface MenuItem {
  label: string;
  run(): void;
  danger?: boolean;
}

// The explorer's context menu: a real menu (arrow keys, Escape, focus returns to the tree).
export function ContextMenu({ x, y, items, onClose }: { x: number; y: number; items: MenuItem[]; onClose: () => void }) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const away = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    window.addEventListener('mousedown', away);
    return () => window.removeEventListener('mousedown', away);
  }, [onClose]);
  const move = (delta: number) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    buttons[(i + delta + buttons.length) % buttons.length]?.focus();
  };
  return (
    <ul
      ref={ref}
      className="ide-menu"
      role="menu"
      style={{ left: x, top: y }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
        else if (e.key === 'ArrowDown') move(1);
        else if (e.key === 'ArrowUp') move(-1);
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {items.map((item) => (
        <li key={item.label} role="none">
          <button
            type="button"
            role="menuitem"
            className={item.danger ? 'ide-menu-danger' : undefined}
            onClick={() => {
              onClose();
              item.run();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}

// Deleting asks first, in a dialog that names what goes (a folder with everything in it).
export function ConfirmDelete({ path, isDir, pending, onConfirm, onCancel }: { path: string; isDir: boolean; pending: boolean; onConfirm: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="ide-dialog-backdrop" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div className="ide-dialog" role="alertdialog" aria-modal="true" aria-labelledby="delete-title" aria-describedby="delete-desc">
        <h2 id="delete-title">Delete {isDir ? 'folder' : 'file'}?</h2>
        <p id="delete-desc">
          <span className="mono">{path}</span>
          {isDir ? ' and everything in it will be deleted from the workspace.' : ' will be deleted from the workspace.'} This cannot be undone here.
        </p>
        <div className="form-actions">
          <button type="button" className="button button-danger" disabled={pending} onClick={onConfirm}>
            {pending ? 'Deleting…' : 'Delete'}
          </button>
          <button ref={cancel} type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
