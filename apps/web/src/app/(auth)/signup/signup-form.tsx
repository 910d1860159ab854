'use client';

import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-error';
import { SubmitButton } from '../../../components/submit-button';
import { api } from '../../../lib/api-client';
import type { User } from '@h/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@h/contracts/identity-api';
import { useAction } from '../../../lib/use-action';

// The api's password rules; the browser checks them first so the user hears about them at once.
const PASSWORD_MIN = PASSWORD_MIN_LENGTH;
const PASSWORD_MAX = PASSWORD_MAX_LENGTH;

export function SignupForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      await api.post<{ user: User }>('/api/v1/auth/signup', { name: name.trim(), email: email.trim(), password }, { redirectOnUnauthorized: false });
      window.location.assign('/teams');
    });
  };

  return (
    <div className="panel auth-panel">
      <h1>Create your H account</h1>
      <form onSubmit={onSubmit} className="form">
        <Field id="name" label="Name" autoComplete="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <Field id="email" label="Email" type="email" autoComplete="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
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
        Already have an account? <Link href="/login">Log in</Link>
      </p>
    </div>
  );
}
