'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { IdeState, IdeStateResponse, UserPreferences, UserPreferencesResponse } from '@h/contracts';
import { CSRF_COOKIE, CSRF_HEADER } from '@h/contracts/identity-api';
import { DEFAULT_USER_PREFERENCES } from '@h/contracts/preferences';
import { api, errorMessage, readCookie } from '../../lib/api-client';
import type { OutputLog } from './output-log';

const SAVE_DELAY_MS = 800;

export interface IdeStateStore {
  /** The state as loaded (null while loading). */
  initial: IdeState | null;
  update(patch: Partial<IdeState>): void;
}

const PREFETCH_FRESH_MS = 10_000;
const prefetched = new Map<string, { at: number; answer: Promise<IdeStateResponse> }>();
const ideStatePath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/ide-state`;

/**
 * Starts reading the IDE state while the workspace itself is still loading (the shell needs both:
 * asking one after the other cost the page a round trip). Taken once by useServerIdeState; an
 * answer older than PREFETCH_FRESH_MS is not used.
 */
export function prefetchIdeState(workspaceId: string): void {
  const path = ideStatePath(workspaceId);
  const hit = prefetched.get(path);
  if (hit && Date.now() - hit.at < PREFETCH_FRESH_MS) return;
  const answer = api.get<IdeStateResponse>(path);
  answer.catch(() => undefined);
  prefetched.set(path, { at: Date.now(), answer });
}

function takePrefetched(path: string): Promise<IdeStateResponse> | null {
  const hit = prefetched.get(path);
  prefetched.delete(path);
  return hit && Date.now() - hit.at < PREFETCH_FRESH_MS ? hit.answer : null;
}

// The IDE's layout, tabs and expanded folders, per user and workspace on the server
// (GET/PUT /api/v1/workspaces/:id/ide-state): read once before the shell renders, written a moment
// after each change and once more when the page is left.
export function useServerIdeState(workspaceId: string, output: OutputLog): IdeStateStore {
  const path = ideStatePath(workspaceId);
  const [initial, setInitial] = useState<IdeState | null>(null);
  const current = useRef<IdeState>({});
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const dirty = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    (takePrefetched(path) ?? api.get<IdeStateResponse>(path, { signal: controller.signal })).then(
      (res) => {
        if (controller.signal.aborted) return;
        current.current = res.state && typeof res.state === 'object' ? res.state : {};
        setInitial(current.current);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        // The IDE still works from a fresh layout; say why the last one is not back.
        output.error(`Could not load your saved layout and tabs: ${errorMessage(err)}`);
        setInitial({});
      },
    );
    return () => controller.abort();
  }, [path, output]);

  const flush = useCallback(
    (leaving = false) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      if (!dirty.current) return;
      dirty.current = false;
      const body = { state: current.current };
      if (leaving) {
        // keepalive lets the request outlive the page; the api client cannot set it.
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        const csrf = readCookie(CSRF_COOKIE);
        if (csrf) headers[CSRF_HEADER] = csrf;
        void fetch(path, { method: 'PUT', headers, body: JSON.stringify(body), credentials: 'same-origin', keepalive: true }).catch(() => undefined);
        return;
      }
      api.put(path, body).catch((err: unknown) => output.error(`Could not save your layout and tabs: ${errorMessage(err)}`));
    },
    [path, output],
  );

  useEffect(() => {
    const leave = () => flush(true);
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      flush(true);
    };
  }, [flush]);

  const update = useCallback(
    (patch: Partial<IdeState>) => {
      current.current = { ...current.current, ...patch };
      dirty.current = true;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => flush(), SAVE_DELAY_MS);
    },
    [flush],
  );

  return { initial, update };
}

/** The signed-in user's editor preferences (GET/PUT /api/v1/me/preferences); defaults until read. */
export function usePreferences(output: OutputLog): { preferences: UserPreferences; save(patch: Partial<UserPreferences>): Promise<void> } {
  const [preferences, setPreferences] = useState<UserPreferences>(DEFAULT_USER_PREFERENCES);
  useEffect(() => {
    const controller = new AbortController();
    api.get<UserPreferencesResponse>('/api/v1/me/preferences', { signal: controller.signal }).then(
      (res) => setPreferences(res.preferences),
      (err: unknown) => !controller.signal.aborted && output.error(`Could not load your editor preferences: ${errorMessage(err)}`),
    );
    return () => controller.abort();
  }, [output]);
  const save = useCallback(async (patch: Partial<UserPreferences>) => {
    const res = await api.put<UserPreferencesResponse>('/api/v1/me/preferences', patch);
    setPreferences(res.preferences);
  }, []);
  return { preferences, save };
}
