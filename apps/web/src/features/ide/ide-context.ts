'use client';

import { createContext, useContext } from 'react';
import type { IdeState } from '@h/contracts';
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

/** The stored IDE state as loaded, and a way to change parts of it (saved to the server shortly after). */
export interface IdeStateAccess {
  initial: IdeState;
  update(patch: Partial<IdeState>): void;
}

export const IdeStateReactContext = createContext<IdeStateAccess | null>(null);

/**
 * For features that keep their own part of the per-user IDE state (terminal tab order in
 * `terminalTabs`, or a field of their own): read it from `initial`, write it with `update`.
 */
export function useIdeState(): IdeStateAccess {
  const access = useContext(IdeStateReactContext);
  if (!access) throw new Error('useIdeState() needs the IDE shell above it');
  return access;
}
