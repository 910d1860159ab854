'use client';

import { useState } from 'react';

// navigator.clipboard exists only in secure contexts (https or localhost); a self-hosted H on a
// plain-http LAN address falls back to selecting the field and execCommand('copy').
async function copyText(text: string, fallbackInputId: string): Promise<boolean> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission denied: try the fallback below.
    }
  }
  const input = document.getElementById(fallbackInputId) as HTMLInputElement | null;
  if (!input) return false;
  input.select();
  return document.execCommand('copy');
}

export function CopyButton({ text, inputId }: { text: string; inputId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="button button-secondary"
      onClick={async () => setState((await copyText(text, inputId)) ? 'copied' : 'failed')}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy manually' : 'Copy'}
    </button>
  );
}
