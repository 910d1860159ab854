import type { Browser } from 'playwright-core';
import { egressProxyEnv } from '../egress-forwarder';

/** The image's Chromium (infra/sandbox/packages.txt). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** How long a launch may take before the call fails (a cold start in the container is ~1 s). */
export const BROWSER_LAUNCH_TIMEOUT_MS = 30_000;

// Flags checked on these machines (shared notes, ENVIRONMENT.md): no GPU, no background traffic.
// --disable-dev-shm-usage: the container's /dev/shm is Docker's 64 MB default, too small for
// renderers; Chromium then uses /tmp (a tmpfs of the sandbox) instead.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--mute-audio',
];

// playwright-core is loaded on the first browser call only: sandboxd starts as fast as before and
// every other method works where the package (or Chromium) is missing.
type PlaywrightCore = typeof import('playwright-core');
let loaded: PlaywrightCore | null = null;
function playwright(): PlaywrightCore {
  loaded ??= require('playwright-core') as PlaywrightCore;
  return loaded;
}

/**
 * Launches headless Chromium. Playwright gives it a fresh profile dir under os.tmpdir() (the
 * sandbox's /tmp tmpfs) and deletes it on close. A workspace with network access goes out through
 * the daemon's egress forwarder (loopback stays direct, so dev servers in the sandbox are reached).
 */
export async function launchChromium(executablePath = CHROMIUM_PATH): Promise<Browser> {
  const proxyUrl = egressProxyEnv().HTTP_PROXY;
  return playwright().chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: BROWSER_LAUNCH_TIMEOUT_MS,
    // sandboxd handles its own signals and closes the browser itself.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...(proxyUrl ? { proxy: { server: proxyUrl, bypass: 'localhost,127.0.0.1' } } : {}),
  });
}
