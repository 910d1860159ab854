'use client';

import { useId, useState } from 'react';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import { useAction } from '../../lib/use-action';
import { DiffLinesView } from './diff-card';
import { parseUnified } from './diff-lines';
import { parseArgs } from './tool-args';
import type { PendingPermission } from './transcript-state';

const PREVIEW_LINES = 40;

function DiffLines({ text, sign }: { text: string; sign: '+' | '-' }) {
  const lines = text.split('\n');
  const shown = lines.slice(0, PREVIEW_LINES);
  return (
    <>
      {shown.map((line, i) => (
        <span key={`${sign}${i}`} className={sign === '+' ? 'diff-add' : 'diff-del'}>
          {`${sign} ${line}\n`}
        </span>
      ))}
      {lines.length > shown.length ? <span className="diff-more">{`… ${lines.length - shown.length} more lines\n`}</span> : null}
    </>
  );
}

// What the agent wants to do, in the form a reviewer reads: the command, or the path and the change.
function InputPreview({ input }: { input: unknown }) {
  const args = parseArgs(input);
  if (!args) return <pre className="perm-input">{typeof input === 'string' ? input : JSON.stringify(input, null, 2)}</pre>;
  const path = typeof args.path === 'string' ? args.path : typeof args.file_path === 'string' ? args.file_path : null;
  if (typeof args.command === 'string') {
    return (
      <pre className="perm-input">
        <span className="perm-prompt" aria-hidden="true">
          ${' '}
        </span>
        {args.command}
      </pre>
    );
  }
  const oldText = typeof args.old_string === 'string' ? args.old_string : null;
  const newText = typeof args.new_string === 'string' ? args.new_string : typeof args.content === 'string' ? args.content : null;
  if (path && (oldText !== null || newText !== null)) {
    return (
      <>
        <p className="perm-path mono">{path}</p>
        <pre className="perm-input perm-diff" aria-label={`Change to ${path}`}>
          {oldText !== null ? <DiffLines text={oldText} sign="-" /> : null}
          {newText !== null ? <DiffLines text={newText} sign="+" /> : null}
        </pre>
      </>
    );
  }
  if (path && Object.keys(args).length === 1) return <p className="perm-path mono">{path}</p>;
  return <pre className="perm-input">{JSON.stringify(args, null, 2)}</pre>;
}

// The worker's preview when there is one: the exact diff against the file as it is now, or the
// exact command; else what the input says.
function Preview({ permission }: { permission: PendingPermission }) {
  const p = permission.preview;
  if (p?.kind === 'diff') {
    return (
      <>
        <p className="perm-path mono">
          {p.path}{' '}
          <span className="diff-counts small">
            <span className="diff-count-add">+{p.added}</span> <span className="diff-count-del">−{p.removed}</span>
          </span>
        </p>
        <DiffLinesView lines={parseUnified(p.diff)} label={`Proposed change to ${p.path}`} />
      </>
    );
  }
  return (
    <>
      {p?.kind === 'unavailable' ? <p className="muted small">No diff: {p.reason}.</p> : null}
      <InputPreview input={permission.input} />
    </>
  );
}

/** What the edit box starts with: the command for a command tool, else the input as JSON. */
function editableText(input: unknown): { mode: 'command' | 'json'; text: string } {
  const args = parseArgs(input);
  if (args && typeof args.command === 'string' && Object.keys(args).length === 1) return { mode: 'command', text: args.command };
  return { mode: 'json', text: JSON.stringify(args ?? input, null, 2) };
}

export function PermissionCard({ permission, canDecide }: { permission: PendingPermission; canDecide: boolean }) {
  const [message, setMessage] = useState('');
  const [choice, setChoice] = useState<'allow' | 'deny' | null>(null);
  const [editing, setEditing] = useState(false);
  const [edit, setEdit] = useState(() => editableText(permission.input));
  const [editError, setEditError] = useState<string>();
  const action = useAction();
  const headingId = useId();
  const messageId = useId();
  const editId = useId();

  /** The edited input, or undefined when unchanged; throws a message for bad JSON. */
  const updatedInput = (): Record<string, unknown> | undefined => {
    if (!editing) return undefined;
    if (edit.mode === 'command') return { command: edit.text };
    const parsed: unknown = JSON.parse(edit.text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The input must be a JSON object.');
    return parsed as Record<string, unknown>;
  };

  const decide = (behavior: 'allow' | 'deny') => {
    let input: Record<string, unknown> | undefined;
    try {
      input = behavior === 'allow' ? updatedInput() : undefined;
      setEditError(undefined);
    } catch (err) {
      setEditError(err instanceof SyntaxError ? `Not valid JSON: ${err.message}` : (err as Error).message);
      return;
    }
    setChoice(behavior);
    void action
      .run(async () => {
        await api.post(`/api/v1/permissions/${encodeURIComponent(permission.permissionId)}`, {
          behavior,
          ...(input ? { updatedInput: input } : {}),
          ...(message.trim() ? { message: message.trim() } : {}),
        });
      })
      // On success the card stays disabled until the permission.resolved event removes it (for
      // every viewer alike); on failure the choice is offered again with the api's message.
      .then((ok) => !ok && setChoice(null));
  };

  const busy = choice !== null;
  return (
    <section className="permission-card" aria-labelledby={headingId} data-permission-id={permission.permissionId}>
      <h3 id={headingId} className="permission-title">
        Approve <span className="mono">{permission.toolName}</span>?
      </h3>
      <Preview permission={permission} />
      {canDecide ? (
        <>
          {editing ? (
            <div className="field">
              <label htmlFor={editId}>{edit.mode === 'command' ? 'Command to run instead' : 'Input to run instead (JSON)'}</label>
              {edit.mode === 'command' ? (
                <input id={editId} className="mono" value={edit.text} onChange={(e) => setEdit({ ...edit, text: e.target.value })} disabled={busy} />
              ) : (
                <textarea id={editId} className="mono" rows={8} value={edit.text} onChange={(e) => setEdit({ ...edit, text: e.target.value })} disabled={busy} />
              )}
              <FormError message={editError} />
            </div>
          ) : (
            <button type="button" className="button button-ghost button-small perm-edit" onClick={() => setEditing(true)} disabled={busy}>
              Edit before allowing
            </button>
          )}
          <div className="field">
            <label htmlFor={messageId}>Message to the agent (optional)</label>
            <input id={messageId} value={message} maxLength={2000} onChange={(e) => setMessage(e.target.value)} placeholder="e.g. use the other file instead" disabled={busy} />
          </div>
          <FormError message={action.error} />
          <div className="form-actions">
            <button type="button" className="button button-primary" onClick={() => decide('allow')} disabled={busy}>
              {choice === 'allow' ? 'Allowing…' : editing ? 'Allow edited' : 'Allow'}
            </button>
            <button type="button" className="button button-secondary" onClick={() => decide('deny')} disabled={busy}>
              {choice === 'deny' ? 'Denying…' : 'Deny'}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="muted small">A member of the team must approve or deny this; viewers cannot.</p>
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled>
              Allow
            </button>
            <button type="button" className="button button-secondary" disabled>
              Deny
            </button>
          </div>
        </>
      )}
    </section>
  );
}
