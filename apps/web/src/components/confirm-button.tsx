'use client';

import { useState } from 'react';

// Two-step inline confirmation for destructive actions instead of window.confirm, which is easy
// to click through and cannot be styled.
export function ConfirmButton({
  label,
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
  describedBy,
}: {
  label: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  describedBy?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button button-secondary button-small" aria-describedby={describedBy} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm-group">
      <button
        type="button"
        className="button button-danger button-small"
        // The first button is gone; keep keyboard focus on the question that replaced it.
        autoFocus
        disabled={pending}
        aria-busy={pending}
        aria-describedby={describedBy}
        onClick={onConfirm}
      >
        {pending ? pendingLabel : confirmLabel}
      </button>
      <button type="button" className="button button-ghost button-small" disabled={pending} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
