'use client';

import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-error';
import { SubmitButton } from '../../../components/submit-button';
import { api } from '../../../lib/api-client';
import type { User } from '@h/contracts';
import { useAction } from '../../../lib/use-action';
import { nextPath } from '../next-path';
import { useSignupAvailability } from '../signup-availability';

export function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const availability = useSignupAvailability();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      await api.post<{ user: User }>('/api/v1/auth/login', { email, password }, { redirectOnUnauthorized: false });
      // A full navigation so every page starts from the new session cookie.
      window.location.assign(nextPath(window.location.search));
    });
  };

  return (
    <div className="panel auth-panel">
      <h1>Log in to H</h1>
      <form onSubmit={onSubmit} className="form">
        <Field id="email" label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={action.error} />
        <SubmitButton pending={action.pending} pendingLabel="Logging in…">
          Log in
        </SubmitButton>
      </form>
      {availability === 'invite' ? (
        <p className="auth-switch muted">New to H? Ask a team admin for an invitation link.</p>
      ) : availability === 'closed' || availability === 'asking' ? null : (
        <p className="auth-switch">
          New to H? <Link href="/signup">Create an account</Link>
        </p>
      )}
    </div>
  );
}
