import type { ReactNode } from 'react';

export function SubmitButton({
  pending,
  pendingLabel,
  children,
  variant = 'primary',
  disabled = false,
}: {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
}) {
  return (
    <button type="submit" className={`button button-${variant}`} disabled={pending || disabled} aria-busy={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
