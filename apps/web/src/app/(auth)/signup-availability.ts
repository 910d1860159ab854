'use client';

import { useEffect, useState } from 'react';
import type { SignupAvailability, SignupOptionsResponse } from '@h/contracts';
import { api } from '../../lib/api-client';

/**
 * Whether a person without an invitation may sign up here now, asked before they fill in a form
 * the server would refuse. 'asking' until the answer arrives (pages show no form or link they might
 * take back a moment later); 'unknown' when it could not be had (the form then shows, and the
 * server's refusal says why).
 */
export type SignupAvailabilityState = SignupAvailability | 'asking' | 'unknown';

export function useSignupAvailability(): SignupAvailabilityState {
  const [availability, setAvailability] = useState<SignupAvailabilityState>('asking');
  useEffect(() => {
    let live = true;
    api
      .get<SignupOptionsResponse>('/api/v1/auth/signup', { redirectOnUnauthorized: false })
      .then((r) => live && setAvailability(r.signup))
      .catch(() => live && setAvailability('unknown'));
    return () => {
      live = false;
    };
  }, []);
  return availability;
}
