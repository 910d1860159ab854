// What the agent's browser tools need from a workspace: its sandbox's one Chromium (sandboxd's
// `browser.*` methods, libs/sandbox-protocol browser-protocol.ts). The worker passes one per run
// (libs/sandbox SandboxBrowserHost); without one the tools refuse and say so.
import type { BrowserMethods } from '@h/sandbox-protocol';

export interface BrowserHost {
  call<M extends keyof BrowserMethods>(method: M, params: BrowserMethods[M][0]): Promise<BrowserMethods[M][1]>;
  /** Whether the run's model reads images; when false, screenshots go through `describe`. */
  readonly vision: boolean;
  /**
   * A text description of a screenshot by the configured vision model (for models without vision);
   * null when no vision model is configured.
   */
  describe?(png: string, header: string, signal: AbortSignal): Promise<string | null>;
}
