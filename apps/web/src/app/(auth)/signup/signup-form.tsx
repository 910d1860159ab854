'use client';

import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-error';
import { SubmitButton } from '../../../components/submit-button';
import { api } from '../../../lib/api-client';
import type { AuthResponse } from '@h/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@h/contracts/identity-api';
import { useAction } from '../../../lib/use-action';
import { useSignupAvailability } from '../signup-availability';

// The api's password rules; the browser checks them first so the user hears about them at once.
const PASSWORD_MIN = PASSWORD_MIN_LENGTH;
const PASSWORD_MAX = PASSWORD_MAX_LENGTH;

/** With an invitation the new account joins its team (and may sign up where only invitations may). */
export interface SignupInvitation {
  token: string;
  /** The email the invitation is bound to, if any: the form fills it in and keeps it. */
  email: string | null;
  teamName: string;
}

export function SignupForm({ invitation }: { invitation?: SignupInvitation } = {}) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState(invitation?.email ?? '');
  const [password, setPassword] = useState('');
  const action = useAction();
  // An invitation opens sign-up whatever the policy; without one, say so before the form is filled in.
  const availability = useSignupAvailability();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      const body = { name: name.trim(), email: email.trim(), password, ...(invitation ? { invitationToken: invitation.token } : {}) };
      const res = await api.post<AuthResponse>('/api/v1/auth/signup', body, { redirectOnUnauthorized: false });
      window.location.assign(res.joined ? `/teams/${encodeURIComponent(res.joined.teamId)}` : '/teams');
    });
  };

  if (!invitation && availability === 'asking') {
    // Usually a few milliseconds: a form shown now could be taken back by the answer.
    return (
      <div className="panel auth-panel" aria-busy="true" data-testid="signup-asking">
        <h1>Create your H account</h1>
        <p className="muted">Checking whether sign-up is open here…</p>
      </div>
    );
  }

  if (!invitation && (availability === 'invite' || availability === 'closed')) {
    return (
      <div className="panel auth-panel" data-testid="signup-unavailable">
        <h1>Create your H account</h1>
        <p>
          {availability === 'invite'
            ? 'Sign-up on this H needs an invitation link. Ask a team admin to invite you: the link they send you opens the sign-up form.'
            : 'Sign-up is turned off on this H. Ask its admin to make you an account.'}
        </p>
        <p className="auth-switch">
          Already have an account? <Link href="/login">Log in</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="panel auth-panel">
      <h1>{invitation ? `Create your account to join ${invitation.teamName}` : 'Create your H account'}</h1>
      <form onSubmit={onSubmit} className="form">
        <Field id="name" label="Name" autoComplete="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          readOnly={Boolean(invitation?.email)}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`At least ${PASSWORD_MIN} characters.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={action.error} />
        <SubmitButton pending={action.pending} pendingLabel="Creating account…">
          Create account
        </SubmitButton>
      </form>
      <p className="auth-switch">
        Already have an account?{' '}
        <Link href={invitation ? `/login?next=${encodeURIComponent(`/invite/${invitation.token}`)}` : '/login'}>Log in</Link>
      </p>
    </div>
  );
}
