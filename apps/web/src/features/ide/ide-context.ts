'use client';

import { createContext, useContext } from 'react';
import type { IdeContext } from './panels';

// The IDE's public context (the shape in panels.tsx) for any component below the shell: the
// console, terminals or source control call openFile/openDiff/runCommand through useIde().
export const IdeReactContext = createContext<IdeContext | null>(null);

export function useIde(): IdeContext {
  const ctx = useContext(IdeReactContext);
  if (!ctx) throw new Error('useIde() needs the IDE shell above it');
  return ctx;
}

/** Like useIde(), for components that also render outside the IDE (null there). */
export function useOptionalIde(): IdeContext | null {
  return useContext(IdeReactContext);
}

// The shell's own actions (save, close tab, toggle panels…) behind the built-in commands: the
// shell registers them while mounted, and the registry's commands call them by id.
const builtins = new Map<string, () => void>();

export function registerBuiltins(handlers: Record<string, () => void>): () => void {
  for (const [id, fn] of Object.entries(handlers)) builtins.set(id, fn);
  return () => {
    for (const [id, fn] of Object.entries(handlers)) if (builtins.get(id) === fn) builtins.delete(id);
  };
}

export function runBuiltin(id: string): void {
  builtins.get(id)?.();
}
