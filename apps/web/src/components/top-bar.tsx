'use client';

import Link from 'next/link';
import { signOut } from '../lib/api-client';
import type { User } from '@h/contracts';
import { useAction } from '../lib/use-action';

export function TopBar({ user, instanceAdmin = false }: { user: User; instanceAdmin?: boolean }) {
  const logout = useAction();

  const onLogout = () => logout.run(signOut);

  return (
    <header className="top-bar">
      <Link href="/teams" className="brand" aria-label="H home">
        <span className="brand-mark" aria-hidden="true">
          H
        </span>
        <span className="brand-name">H</span>
      </Link>
      <nav aria-label="Main" className="top-nav">
        <Link href="/teams">Teams</Link>
        {/* The instance page is for instance admins only; the api refuses everyone else. */}
        {instanceAdmin ? <Link href="/admin">Instance</Link> : null}
      </nav>
      <div className="top-user">
        <span className="top-user-name" title={user.email} data-testid="current-user">
          {user.name}
          <span className="top-user-email">{user.email}</span>
        </span>
        <button type="button" className="button button-ghost" onClick={onLogout} disabled={logout.pending} aria-busy={logout.pending}>
          {logout.pending ? 'Signing out…' : 'Log out'}
        </button>
      </div>
      {logout.error ? (
        <p className="top-error" role="alert">
          {logout.error}
        </p>
      ) : null}
    </header>
  );
}
