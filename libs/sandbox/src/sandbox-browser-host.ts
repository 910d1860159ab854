import type { BrowserMethods } from '@h/sandbox-protocol';
import type { SandboxClientProvider } from './sandbox-workspace';

export interface SandboxBrowserHostOptions {
  /** Whether the run's model reads images (screenshots then go to it as images). */
  vision: boolean;
  /** Describes a screenshot for a model without vision; null when no vision model is configured. */
  describe?: (png: string, header: string, signal: AbortSignal) => Promise<string | null>;
}

/**
 * The agent's browser tools' way to the workspace sandbox's Chromium (sandboxd `browser.*`), the
 * same browser every member's browser view shows. Implements the tools' BrowserHost (libs/tools
 * browser-host.ts). Errors stay RpcErrors: their message is what the model reads.
 */
export class SandboxBrowserHost {
  readonly vision: boolean;
  readonly describe?: SandboxBrowserHostOptions['describe'];

  constructor(
    private readonly clients: SandboxClientProvider,
    options: SandboxBrowserHostOptions,
  ) {
    this.vision = options.vision;
    this.describe = options.describe;
  }

  async call<M extends keyof BrowserMethods>(method: M, params: BrowserMethods[M][0]): Promise<BrowserMethods[M][1]> {
    const client = await this.clients();
    return client.call(method, params);
  }
}
