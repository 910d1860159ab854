'use client';

import { createContext, useContext } from 'react';
import type { MeResponse } from '@h/contracts';

export interface Session {
  me: MeResponse;
  refresh: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside the signed-in app shell');
  return session;
}
