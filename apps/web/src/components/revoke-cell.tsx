'use client';

import { api } from '../lib/api-client';
import { useAction } from '../lib/use-action';
import { ConfirmButton } from './confirm-button';
import { FormError } from './form-error';

// The last cell of a row of something revocable (a token, an invitation): confirm, DELETE, tell.
export function RevokeCell({ path, describedBy, onRevoked }: { path: string; describedBy: string; onRevoked: () => void }) {
  const revoke = useAction();
  return (
    <td className="cell-actions">
      <ConfirmButton
        label="Revoke"
        confirmLabel="Confirm revoke"
        pendingLabel="Revoking…"
        pending={revoke.pending}
        describedBy={describedBy}
        onConfirm={() =>
          void revoke.run(async () => {
            await api.delete(path);
            onRevoked();
          })
        }
      />
      <FormError message={revoke.error} />
    </td>
  );
}
