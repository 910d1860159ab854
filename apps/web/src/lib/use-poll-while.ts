'use client';

import { useEffect } from 'react';
import type { ApiQuery } from './use-api-query';

const POLL_MS = 1500;

// Reloads a query every POLL_MS while `active` holds, e.g. while a worker job provisions a
// workspace. The next reload is scheduled only after the previous one finished.
export function usePollWhile(active: boolean, query: Pick<ApiQuery<unknown>, 'loading' | 'reload'>, intervalMs = POLL_MS): void {
  const { loading, reload } = query;
  useEffect(() => {
    if (!active || loading) return;
    const timer = setTimeout(reload, intervalMs);
    return () => clearTimeout(timer);
  }, [active, loading, reload, intervalMs]);
}

export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · H`;
  }, [title]);
}
