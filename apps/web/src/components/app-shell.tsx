'use client';

import type { ReactNode } from 'react';
import { useMemo } from 'react';
import type { MeResponse } from '@h/contracts';
import { SessionContext } from '../lib/session-context';
import { useApiQuery } from '../lib/use-api-query';
import { TopBar } from './top-bar';

// Every signed-in page renders inside this shell: it loads /me (a 401 there sends the browser to
// /login via the api client) and shares the user and their teams with the pages below.
export function AppShell({ children }: { children: ReactNode }) {
  const me = useApiQuery<MeResponse>('/api/v1/me');
  const session = useMemo(() => (me.data ? { me: me.data, refresh: me.reload } : null), [me.data, me.reload]);

  if (!session) {
    return (
      <div className="shell-loading" aria-live="polite">
        {me.error ? (
          <div className="panel">
            <p role="alert" className="form-error">
              {me.error.message}
            </p>
            <button type="button" className="button button-secondary" onClick={me.reload}>
              Try again
            </button>
          </div>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    );
  }

  return (
    <SessionContext.Provider value={session}>
      <TopBar user={session.me.user} instanceAdmin={session.me.instanceAdmin === true} />
      <main className="page">{children}</main>
    </SessionContext.Provider>
  );
}
