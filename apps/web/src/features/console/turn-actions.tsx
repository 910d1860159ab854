'use client';

import { useId } from 'react';
import type { Session as AgentSession } from '@h/contracts';
import { ConfirmButton } from '../../components/confirm-button';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import { useAction } from '../../lib/use-action';

const DRAFT_KEY = (sessionId: string) => `h.draft.${sessionId}`;

/**
 * A session's unsent message in this tab: the one a fork was made at, or what was typed. Read, not
 * taken: the composer may mount more than once while the IDE settles, and each mount must see it;
 * the composer clears it once the message is sent (saveDraft with '').
 */
export function readDraft(sessionId: string): string {
  if (typeof window === 'undefined') return '';
  return window.sessionStorage.getItem(DRAFT_KEY(sessionId)) ?? '';
}

export function saveDraft(sessionId: string, text: string): void {
  if (typeof window === 'undefined') return;
  if (text) window.sessionStorage.setItem(DRAFT_KEY(sessionId), text);
  else window.sessionStorage.removeItem(DRAFT_KEY(sessionId));
}

// "Revert this run": every change of the run still in place is undone, newest first, or none is.
export function RevertRunButton({ runId, count }: { runId: string; count: number }) {
  const action = useAction();
  const hintId = useId();
  return (
    <div className="turn-action" data-revert-run={runId}>
      <span id={hintId} className="visually-hidden">
        Restores the {count} file{count === 1 ? '' : 's'} this run changed to how they were before it.
      </span>
      <ConfirmButton
        label={`Revert this run (${count} change${count === 1 ? '' : 's'})`}
        confirmLabel="Restore the files"
        pendingLabel="Reverting…"
        pending={action.pending}
        describedBy={hintId}
        onConfirm={() =>
          void action.run(async () => {
            await api.post(`/api/v1/runs/${encodeURIComponent(runId)}/revert`, {});
          })
        }
      />
      <FormError message={action.error} />
    </div>
  );
}

/** Shape of POST /sessions/:id/fork's answer (ForkSessionResultDto). */
interface ForkResult {
  session: AgentSession;
  restoredCheckpoint: string | null;
  draft: string;
}

// "Fork from here": a new session with the log before this message and the files as they were.
export function ForkButton({ sessionId, seq, onForked }: { sessionId: string; seq: number; onForked: (session: AgentSession) => void }) {
  const action = useAction();
  const hintId = useId();
  return (
    <div className="turn-action fork-action">
      <span id={hintId} className="muted small fork-hint">
        Starts a new session with the conversation before this message. The workspace&apos;s files go back to how they were then, for everyone working in it.
      </span>
      <ConfirmButton
        label="Fork from here"
        confirmLabel="Fork and restore files"
        pendingLabel="Forking…"
        pending={action.pending}
        describedBy={hintId}
        onConfirm={() =>
          void action.run(async () => {
            const r = await api.post<ForkResult>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/fork`, { atSeq: seq });
            if (r.draft) saveDraft(r.session.id, r.draft);
            onForked(r.session);
          })
        }
      />
      <FormError message={action.error} />
    </div>
  );
}
