import type { ReactNode } from 'react';
import type { ApiQuery } from '../lib/use-api-query';
import { FormError } from './form-error';

/**
 * The tables of the team pages: a wrapper that scrolls sideways on narrow screens, a table named
 * for screen readers, and its header row. `actions` adds a last column for row buttons whose
 * header only screen readers hear.
 */
export function DataTable({ label, columns, actions = false, children }: { label: string; columns: string[]; actions?: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * What a list query shows instead of its rows: its error, "Loading…" before the first answer, and
 * `empty` once it answered with no items. Renders nothing while there are rows to show.
 */
export function ListState({ query, loading, empty }: { query: ApiQuery<{ items: unknown[] }>; loading?: string; empty?: string }) {
  const items = query.data?.items;
  return (
    <>
      {query.error ? <FormError message={query.error.message} /> : null}
      {loading && !items && !query.error ? <p className="muted">{loading}</p> : null}
      {empty && items && items.length === 0 ? <p className="empty">{empty}</p> : null}
    </>
  );
}
