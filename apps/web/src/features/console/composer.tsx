'use client';

import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import type { Run } from '@h/contracts';
import { makeClientId } from '../../lib/client-id';
import { useAction } from '../../lib/use-action';
import { readDraft, saveDraft } from './turn-actions';

export function Composer({
  sessionId,
  canWrite,
  activeRunId,
  stepModeDefault = false,
  onPosted,
}: {
  sessionId: string;
  canWrite: boolean;
  activeRunId: string | null;
  /** The session's step-by-step option: the choice each message starts with; null: not offered (engine claude-code). */
  stepModeDefault?: boolean | null;
  onPosted: (run: Run) => void;
}) {
  // A fork hands over the message it was made at, to edit and send again.
  const [content, setContent] = useState(() => readDraft(sessionId));
  // Kept per session in this tab until sent, so a reload or a remount does not lose it.
  useEffect(() => saveDraft(sessionId, content), [sessionId, content]);
  const send = useAction();
  const cancel = useAction();
  // One id per message: a retry after a lost answer, or a double submit, names the same message
  // and the api returns the run it already created instead of starting a second one.
  const clientMessageId = useRef<string | null>(null);
  const inputId = useId();
  const stepId = useId();
  const [stepMode, setStepMode] = useState(stepModeDefault === true);
  const hintId = useId();

  const submit = () => {
    const text = content.trim();
    if (!text || send.pending || !canWrite) return;
    clientMessageId.current ??= makeClientId('msg');
    void send.run(async () => {
      const run = await api.post<Run>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/messages`, {
        content: text,
        clientMessageId: clientMessageId.current,
        ...(stepModeDefault === null ? {} : { stepMode }),
      });
      clientMessageId.current = null;
      setContent('');
      onPosted(run);
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onCancel = () => {
    if (!activeRunId) return;
    void cancel.run(async () => {
      await api.post<Run>(`/api/v1/runs/${encodeURIComponent(activeRunId)}/cancel`);
    });
  };

  if (!canWrite) return <p className="composer-readonly muted small">Viewers can follow this session but not send messages.</p>;

  return (
    <form className="composer" onSubmit={onSubmit}>
      <label htmlFor={inputId} className="visually-hidden">
        Message to the agent
      </label>
      <textarea
        id={inputId}
        className="composer-input"
        rows={3}
        value={content}
        placeholder={activeRunId ? 'Send a follow-up; it runs after the current run.' : 'Describe a task for the agent…'}
        aria-describedby={hintId}
        disabled={send.pending}
        onChange={(e) => {
          setContent(e.target.value);
          // An edited message is a new message.
          clientMessageId.current = null;
        }}
        onKeyDown={onKeyDown}
      />
      <FormError message={send.error ?? cancel.error} />
      <div className="composer-actions">
        <span id={hintId} className="muted small">
          Enter to send, Shift+Enter for a new line
        </span>
        {stepModeDefault === null ? null : (
          <span className="checkbox-field composer-step-mode">
            <input
              id={stepId}
              type="checkbox"
              checked={stepMode}
              onChange={(e) => {
                setStepMode(e.target.checked);
                clientMessageId.current = null;
              }}
            />
            <label htmlFor={stepId} className="small" title="Plan first with write_todos; the server locks the plan and runs each step as its own sub-agent">
              Step by step
            </label>
          </span>
        )}
        {activeRunId ? (
          <button type="button" className="button button-secondary" onClick={onCancel} disabled={cancel.pending}>
            {cancel.pending ? 'Cancelling…' : 'Cancel run'}
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={send.pending || !content.trim()}>
          {send.pending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
