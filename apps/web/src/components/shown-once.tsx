'use client';

import { CopyButton } from './copy-button';

// A secret the api shows exactly once (an API token, an invitation link): a read-only field to
// copy it from, and "Done" to drop it from the page.
export function ShownOnce({ id, label, message, value, onDone }: { id: string; label: string; message: string; value: string; onDone: () => void }) {
  return (
    <div className="secret-box" role="status" aria-live="polite">
      <p className="strong">{message}</p>
      <div className="secret-row">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} className="mono secret-input" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} inputId={id} />
        <button type="button" className="button button-ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
