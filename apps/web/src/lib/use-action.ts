'use client';

import { useCallback, useState } from 'react';
import { errorMessage } from './api-client';

export interface Action {
  pending: boolean;
  error: string | undefined;
  run: (work: () => Promise<void>) => Promise<boolean>;
  clearError: () => void;
}

// Tracks one write from a form: disables its button while pending and keeps the API's message.
export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  const run = useCallback(async (work: () => Promise<void>) => {
    setPending(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (cause) {
      setError(errorMessage(cause));
      return false;
    } finally {
      setPending(false);
    }
  }, []);

  const clearError = useCallback(() => setError(undefined), []);
  return { pending, error, run, clearError };
}
