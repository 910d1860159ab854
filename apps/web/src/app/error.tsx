'use client';

import Link from 'next/link';

// Shown when a page throws while rendering (a bug, never an API error: those are shown in place).
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="auth-page">
      <div className="panel auth-panel">
        <h1>Something went wrong</h1>
        <p className="muted">This page hit an unexpected error. Trying again usually helps; if it keeps happening, tell your H administrator.</p>
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={reset}>
            Try again
          </button>
          <Link href="/teams">Go to your teams</Link>
        </div>
      </div>
    </main>
  );
}
