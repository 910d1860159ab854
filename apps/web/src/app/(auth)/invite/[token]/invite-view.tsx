'use client';

import Link from 'next/link';
import { type ReactNode, useEffect, useState } from 'react';
import { FormError } from '../../../../components/form-error';
import { SubmitButton } from '../../../../components/submit-button';
import { ApiError, api, errorMessage } from '../../../../lib/api-client';
import type { InvitationPreview, MeResponse } from '@h/contracts';
import { formatDate } from '../../../../lib/format';
import { ROLE_LABELS } from '../../../../lib/roles';
import { useAction } from '../../../../lib/use-action';
import { SignupForm } from '../../signup/signup-form';

type Loaded = { preview: InvitationPreview; me: MeResponse | null } | { error: string };

// /invite/<token>: what the link offers, then "join" for someone signed in, or a sign-up form
// (allowed with the link even where sign-up is invite-only) and a way to log in first.
export function InviteView({ token }: { token: string }) {
  const [loaded, setLoaded] = useState<Loaded>();

  useEffect(() => {
    const quiet = { redirectOnUnauthorized: false };
    Promise.all([
      api.post<InvitationPreview>('/api/v1/invitations/lookup', { token }, quiet),
      api.get<MeResponse>('/api/v1/me', quiet).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }),
    ])
      .then(([preview, me]) => setLoaded({ preview, me }))
      .catch((err: unknown) => setLoaded({ error: errorMessage(err) }));
  }, [token]);

  if (!loaded) return <p className="muted">Loading invitation…</p>;
  if ('error' in loaded) {
    return (
      <div className="panel auth-panel">
        <h1>This invitation cannot be used</h1>
        <FormError message={loaded.error} />
        <p className="auth-switch">
          <Link href="/login">Log in</Link>
        </p>
      </div>
    );
  }
  const { preview, me } = loaded;
  const offer = (
    <p className="muted">
      {preview.invitedBy} invites you to <span className="strong">{preview.teamName}</span> as{' '}
      <span className="badge">{ROLE_LABELS[preview.role]}</span>. The link works until {formatDate(preview.expiresAt)}
      {preview.email ? <> and only for {preview.email}</> : null}.
    </p>
  );
  if (!me) {
    return (
      <>
        <div className="panel auth-panel">{offer}</div>
        <SignupForm invitation={{ token, email: preview.email, teamName: preview.teamName }} />
      </>
    );
  }
  return <AcceptPanel token={token} me={me} offer={offer} teamName={preview.teamName} />;
}

function AcceptPanel({ token, me, offer, teamName }: { token: string; me: MeResponse; offer: ReactNode; teamName: string }) {
  const action = useAction();
  const accept = () =>
    void action.run(async () => {
      const joined = await api.post<{ teamId: string }>('/api/v1/invitations/accept', { token });
      window.location.assign(`/teams/${encodeURIComponent(joined.teamId)}`);
    });
  return (
    <div className="panel auth-panel">
      <h1>Join {teamName}</h1>
      {offer}
      <p className="muted small">You are signed in as {me.user.email}.</p>
      <FormError message={action.error} />
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          accept();
        }}
      >
        <SubmitButton pending={action.pending} pendingLabel="Joining…">
          Join {teamName}
        </SubmitButton>
      </form>
    </div>
  );
}
