'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import { initialDiagnostics, type DiagnosticsState } from './diagnostics-state';
import { acquireDiagnostics, releaseDiagnostics, type DiagnosticsStore } from './diagnostics-store';

/** The workspace's shared diagnostics store while the caller is mounted (null until the effect ran). */
export function useDiagnosticsStore(workspaceId: string): DiagnosticsStore | null {
  const [store, setStore] = useState<DiagnosticsStore | null>(null);
  useEffect(() => {
    const s = acquireDiagnostics(workspaceId);
    setStore(s);
    return () => {
      setStore(null);
      releaseDiagnostics(s);
    };
  }, [workspaceId]);
  return store;
}

const noop = () => () => undefined;
const initial = () => initialDiagnostics;

export function useDiagnostics(workspaceId: string): DiagnosticsState {
  const store = useDiagnosticsStore(workspaceId);
  return useSyncExternalStore(store ? store.subscribe : noop, store ? () => store.state : initial, initial);
}
