'use client';

import { loader } from '@monaco-editor/react';
import type * as MonacoApi from 'monaco-editor';

export type Monaco = typeof MonacoApi;

let loading: Promise<Monaco> | null = null;

/**
 * The worker for a language label. Each is its own entry that Next bundles from monaco-editor's ESM
 * build, served by H like any chunk: the IDE works offline and never asks a CDN. Turbopack only
 * bundles `new Worker(new URL('<literal>', import.meta.url), { <literal options> })` written out in
 * full; anything else becomes a raw file copy that cannot run. The base worker must come from here:
 * Monaco's own fallback for it is such a raw `new URL`.
 */
function workerFor(label: string): Worker {
  switch (label) {
    case 'json':
      return new Worker(new URL('./monaco-workers/json.worker.ts', import.meta.url), { type: 'module' });
    case 'css':
    case 'scss':
    case 'less':
      return new Worker(new URL('./monaco-workers/css.worker.ts', import.meta.url), { type: 'module' });
    case 'html':
    case 'handlebars':
    case 'razor':
      return new Worker(new URL('./monaco-workers/html.worker.ts', import.meta.url), { type: 'module' });
    case 'typescript':
    case 'javascript':
      return new Worker(new URL('./monaco-workers/ts.worker.ts', import.meta.url), { type: 'module' });
    default:
      return new Worker(new URL('./monaco-workers/editor.worker.ts', import.meta.url), { type: 'module' });
  }
}

/**
 * Monaco's ESM build, bundled by Next into its own chunk and imported on first use (the IDE shell
 * renders without waiting for it). Not the AMD build (min/vs, deprecated since 0.53) the IDE used
 * to load from /monaco/vs: its loader created the editor's services before every feature had
 * registered its own ("[createInstance] X depends on UNKNOWN service Y") and its workers failed to
 * start (a bare `Event` rejected). One instance for the page: the React wrapper is pointed at it,
 * so it never fetches the AMD loader. Its workers come from `workerFor`. Loaded once; a failure
 * (the server unreachable) can be retried. `window.monaco` is set for tests and benchmarks that
 * read the models.
 */
export function loadMonaco(): Promise<Monaco> {
  loading ??= (async () => {
    globalThis.MonacoEnvironment = { getWorker: (_id: string, label: string) => workerFor(label) };
    const monaco = (await import('monaco-editor')) as Monaco;
    loader.config({ monaco });
    await loader.init();
    (window as unknown as { monaco?: Monaco }).monaco = monaco;
    return monaco;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Starts fetching Monaco's chunk without waiting for it (called as soon as the IDE route renders). */
export function preloadMonaco(): void {
  void loadMonaco().catch(() => undefined);
}

/** One model per open file, named by its workspace path (Monaco picks the language from it). */
export function modelPath(path: string): string {
  return `file:///workspace/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The language Monaco associates with a file name ('plaintext' when none). */
export function languageForPath(monaco: Monaco, path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  for (const lang of monaco.languages.getLanguages()) {
    if (lang.filenames?.some((f) => f.toLowerCase() === name)) return lang.id;
  }
  let best: { id: string; length: number } | null = null;
  for (const lang of monaco.languages.getLanguages()) {
    for (const ext of lang.extensions ?? []) {
      if (name.endsWith(ext.toLowerCase()) && (!best || ext.length > best.length)) best = { id: lang.id, length: ext.length };
    }
  }
  return best?.id ?? 'plaintext';
}

export function languageLabel(monaco: Monaco, id: string): string {
  return monaco.languages.getLanguages().find((l) => l.id === id)?.aliases?.[0] ?? id;
}
