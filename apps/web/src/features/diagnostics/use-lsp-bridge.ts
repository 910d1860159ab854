'use client';

import { useEffect, useRef } from 'react';
import { loadMonaco } from '../ide/monaco-setup';
import { installLspBridge } from './monaco-lsp-bridge';
import { useDiagnosticsStore } from './use-diagnostics';

/**
 * Language intelligence for the IDE's Monaco while the shell is mounted: markers on every model,
 * buffers synced to the language servers (members and up), completion, hover and go to definition
 * (`openFile` opens another file's definition in a tab).
 */
export function useLspBridge(workspaceId: string, canWrite: boolean, openFile: (path: string, at: { line: number; column: number }) => void): void {
  const store = useDiagnosticsStore(workspaceId);
  const open = useRef(openFile);
  open.current = openFile;
  useEffect(() => {
    if (!store) return;
    let alive = true;
    let uninstall: (() => void) | null = null;
    // Monaco failing to load is said by the editor area; nothing to bridge then.
    loadMonaco().then(
      (monaco) => {
        if (alive) uninstall = installLspBridge(monaco, store, { canWrite, openFile: (path, at) => open.current(path, at) });
      },
      () => undefined,
    );
    return () => {
      alive = false;
      uninstall?.();
    };
  }, [store, canWrite]);
}
