import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

// Flags checked on these machines (see shared notes ENVIRONMENT.md): no GPU, no sandbox (we run as
// root), and nothing that phones home. Playwright itself adds --headless and --user-data-dir.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  /** Closes Chromium and deletes its profile directory. */
  close(): Promise<void>;
}

export interface LaunchBrowserOptions {
  baseURL?: string;
  viewport?: { width: number; height: number };
}

// A real headless Chromium with a fresh, throw-away profile, so no cookies or storage leak from
// one test file to the next.
export async function launchBrowser(options: LaunchBrowserOptions = {}): Promise<LaunchedBrowser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'h-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_FLAGS,
      baseURL: options.baseURL,
      viewport: options.viewport ?? { width: 1280, height: 860 },
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
  };
}
