'use client';

import { useEffect, useState } from 'react';
import type { SignupAvailability, SignupOptionsResponse } from '@h/contracts';
import { api } from '../../lib/api-client';

/**
 * Whether a person without an invitation may sign up here now, asked before they fill in a form
 * the server would refuse. Null while asking, and when the answer could not be had (the form then
 * shows, and the server's refusal says why).
 */
export function useSignupAvailability(): SignupAvailability | null {
  const [availability, setAvailability] = useState<SignupAvailability | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<SignupOptionsResponse>('/api/v1/auth/signup', { redirectOnUnauthorized: false })
      .then((r) => live && setAvailability(r.signup))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return availability;
}
