'use client';

import { loader } from '@monaco-editor/react';
import type * as MonacoApi from 'monaco-editor';

export type Monaco = typeof MonacoApi;

// Monaco is served by this app from /monaco/vs (copied from monaco-editor's min/vs at build time,
// scripts/copy-monaco.mjs): the IDE works offline and never asks a CDN.
let configured = false;
export function configureMonaco(): void {
  if (configured) return;
  configured = true;
  loader.config({ paths: { vs: '/monaco/vs' } });
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
