import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, BrowserContext, Locator, Page } from 'playwright-core';
import { TEST_LOG_DIR } from '../../support/test-env';

// Shared steps of the browser specs. H_BASE_URL is the one URL a user opens (the api, which
// proxies the pages); the e2e global setup starts api + worker + web and exports it.
const SCREENSHOT_DIR = path.join(process.cwd(), 'tmp', 'screenshots');

export function baseUrl(): string {
  const url = process.env.H_BASE_URL;
  if (!url) throw new Error('H_BASE_URL is not set: the e2e global setup must start H and export its URL');
  return url;
}

/** The team's DeepSeek key section (the Anthropic one beside it has the same field and button names). */
export function deepSeekKeySection(page: Page): Locator {
  return page.getByRole('region', { name: 'DeepSeek API key' });
}

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // A full-page capture of a scrolled page draws the sticky top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** One part of the page (a panel scrolled into view), for what a full-page capture cuts off. */
export async function screenshotOf(part: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await part.scrollIntoViewIfNeeded();
  await part.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** What Monaco logs when its services or workers are not set up right (it goes on half-working). */
const MONACO_FAULT = /depends on UNKNOWN service|Could not create web worker|Failed to load worker script|MonacoEnvironment\.getWorker/;

/** Collects uncaught page errors (hydration failures, crashes) and Monaco's setup faults so a test can assert there were none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    errors.push(error.message);
  });
  // Monaco reports a broken setup (a service or worker missing) on the console instead of throwing.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && MONACO_FAULT.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
  return errors;
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export interface Account {
  email: string;
  password: string;
  name: string;
}

/** Creates an account over the real api (for users a test needs but does not sign up through the page). */
export async function signUpViaApi(request: APIRequestContext, name: string): Promise<Account> {
  const suffix = uniqueSuffix();
  const account = { email: `e2e-${suffix}@example.com`, password: `pass phrase ${suffix}`, name };
  const response = await request.post('/api/v1/auth/signup', { data: account });
  if (response.status() !== 201) throw new Error(`signup answered ${response.status()}: ${await response.text()}`);
  return account;
}

/** Secrets a spec typed or received, by what they are, to look for in the logs afterwards. */
export class SecretLedger {
  private readonly values = new Map<string, string>();

  remember(what: string, value: string | undefined): void {
    if (!value) throw new Error(`no value for ${what}`);
    this.values.set(what, value);
  }

  /** The session and CSRF cookies the browser holds right now. */
  async rememberCookies(context: BrowserContext, who: string): Promise<void> {
    for (const cookie of await context.cookies()) {
      if (cookie.name === 'h_session' || cookie.name === 'h_csrf') this.remember(`${cookie.name} of ${who}`, cookie.value);
    }
  }

  /**
   * Names of the secrets found in the logs of the processes the e2e setup started (api, worker,
   * web). Fails when there are no such logs, so the check can never pass by reading nothing.
   */
  foundInLogs(): string[] {
    const files = existsSync(TEST_LOG_DIR) ? readdirSync(TEST_LOG_DIR).filter((f) => /^e2e-.*\.log$/.test(f)) : [];
    if (!files.some((f) => f === 'e2e-api.log')) {
      throw new Error(`no e2e-api.log in ${TEST_LOG_DIR}: run the e2e tier through its global setup`);
    }
    const text = files.map((f) => readFileSync(path.join(TEST_LOG_DIR, f), 'utf8')).join('\n');
    return [...this.values].filter(([, value]) => text.includes(value)).map(([what]) => what);
  }
}

/** On a ready workspace (the IDE), shows the "Workspace" side view: status and settings. */
export async function openWorkspaceSettings(page: Page): Promise<void> {
  const button = page.getByRole('navigation', { name: 'Side views' }).getByRole('button', { name: 'Workspace', exact: true });
  await button.waitFor();
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await page.getByRole('complementary', { name: 'Workspace' }).waitFor();
}
