'use client';

import { useState, type FormEvent } from 'react';
import { DataTable, ListState } from '../../components/data-table';
import { Field } from '../../components/field';
import { SelectField } from '../../components/select-field';
import type { AuditPage, ListResponse, Member } from '@h/contracts';
import { AUDIT_PAGE } from '@h/contracts/admin-api';
import { formatDateTime } from '../../lib/format';
import { useApiQuery } from '../../lib/use-api-query';

interface Filters {
  action: string;
  actorUserId: string;
  /** YYYY-MM-DD from the date inputs, local days. */
  fromDay: string;
  toDay: string;
}

const NO_FILTERS: Filters = { action: '', actorUserId: '', fromDay: '', toDay: '' };
const PAGE_SIZE = AUDIT_PAGE.default;

/** The query string for one page: the range is local whole days, `to` the start of the day after. */
function auditQuery(filters: Filters, before: string | null): string {
  const q = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.action.trim()) q.set('action', filters.action.trim());
  if (filters.actorUserId) q.set('actorUserId', filters.actorUserId);
  if (filters.fromDay) q.set('from', new Date(`${filters.fromDay}T00:00:00`).toISOString());
  if (filters.toDay) {
    const end = new Date(`${filters.toDay}T00:00:00`);
    end.setDate(end.getDate() + 1);
    q.set('to', end.toISOString());
  }
  if (before) q.set('before', before);
  return q.toString();
}

// Who did what in the team, newest first, for its admins and owners (the api answers 403 to the
// rest). Filters apply when the form is sent; "Older" follows the page's cursor, "Newer" goes back.
export function AuditSection({ base }: { base: string }) {
  const members = useApiQuery<ListResponse<Member>>(`${base}/members`);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // The cursors of the pages before this one; the last is this page's.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const before = cursors[cursors.length - 1];
  const page = useApiQuery<AuditPage>(`${base}/audit?${auditQuery(filters, before)}`);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setCursors([null]);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
    setCursors([null]);
  };
  const people = [{ value: '', label: 'Anyone' }, ...(members.data?.items ?? []).map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }))];
  const items = page.data?.items;

  return (
    <section className="panel" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <p className="muted section-intro">Who did what in this team, newest first. Only admins and owners see it.</p>
      <form className="form" onSubmit={apply} aria-label="Audit log filters">
        <div className="form-row">
        <Field id="audit-action" label="Action" value={draft.action} placeholder="token or member.invite" hint="An action, or the start of one" onChange={(e) => setDraft({ ...draft, action: e.target.value })} />
        <SelectField id="audit-person" label="Person" value={draft.actorUserId} options={people} onChange={(actorUserId) => setDraft({ ...draft, actorUserId })} />
        <Field id="audit-from" label="From" type="date" value={draft.fromDay} onChange={(e) => setDraft({ ...draft, fromDay: e.target.value })} />
        <Field id="audit-to" label="To" type="date" value={draft.toDay} onChange={(e) => setDraft({ ...draft, toDay: e.target.value })} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button">
            Filter
          </button>
          <button type="button" className="button button-ghost" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
      <ListState query={page} loading="Loading the audit log…" empty="No entries match." />
      {items?.length ? (
        <DataTable label="Audit log" columns={['When', 'Action', 'Person', 'Target', 'Address']}>
          {items.map((e) => (
            <tr key={e.id} data-testid="audit-row">
              <td>{formatDateTime(e.createdAt)}</td>
              <td className="mono small">{e.action}</td>
              <td>
                {e.actorName ?? <span className="muted">{e.actorUserId ? 'removed account' : 'unknown'}</span>}
                {e.actorTokenId ? <span className="badge"> API token</span> : null}
              </td>
              <td className="mono small">{e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : '—'}</td>
              <td className="mono small">{e.ip ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button button-secondary" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button type="button" className="button button-secondary" disabled={!page.data?.nextCursor} onClick={() => page.data?.nextCursor && setCursors([...cursors, page.data.nextCursor])}>
          Older
        </button>
      </div>
    </section>
  );
}
