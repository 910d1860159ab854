import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from 'playwright-core';

// Shared steps of the browser specs. H_BASE_URL is the one URL a user opens (the api, which
// proxies the pages); the e2e global setup starts api + worker + web and exports it.
const SCREENSHOT_DIR = path.join(process.cwd(), 'tmp', 'screenshots');

export function baseUrl(): string {
  const url = process.env.H_BASE_URL;
  if (!url) throw new Error('H_BASE_URL is not set: the e2e global setup must start H and export its URL');
  return url;
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

/** Collects uncaught page errors (hydration failures, crashes) so a test can assert there were none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
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
