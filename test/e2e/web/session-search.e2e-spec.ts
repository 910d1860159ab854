import type { Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { csrfHeader, signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, screenshotOf, uniqueSuffix, watchPageErrors } from './web-helpers';

// Issue 14, point 2, in headless Chromium: the team page searches the sessions of every workspace
// of the team and a hit opens its session in its workspace; the IDE's box searches only its own.
async function sessionWithMessage(page: Page, workspaceId: string, title: string, content: string): Promise<string> {
  const headers = await csrfHeader(page);
  const made = await page.request.post(`/api/v1/workspaces/${workspaceId}/sessions`, { data: { title, permissionMode: 'approve' }, headers });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  const sent = await page.request.post(`/api/v1/sessions/${id}/messages`, { data: { content }, headers });
  expect(sent.status()).toBe(202);
  return id;
}

describe('web session search', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("should find sessions across the team's workspaces and open the chosen one", async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const suffix = uniqueSuffix();
    const { workspaceId } = await signUpToReadyWorkspace(page, suffix);
    const { teamId } = (await (await page.request.get(`/api/v1/workspaces/${workspaceId}`)).json()) as { teamId: string };
    const other = await page.request.post(`/api/v1/teams/${teamId}/workspaces`, { data: { name: `billing-${suffix}` }, headers: await csrfHeader(page) });
    expect(other.status()).toBe(201);
    const otherId = ((await other.json()) as { id: string }).id;
    const word = `ledger${suffix.replace(/[^a-z0-9]/gi, '')}`;
    await sessionWithMessage(page, workspaceId, 'Rounding in calc', `Why is the ${word} total off by a cent?`);
    const billing = await sessionWithMessage(page, otherId, 'Billing export', `Export the ${word} as CSV`);

    await page.goto(`/teams/${teamId}`);
    const section = page.getByRole('region', { name: 'Search sessions' });
    await section.getByRole('searchbox', { name: 'Search sessions' }).fill(word);
    const results = section.getByRole('list', { name: 'Search results' });
    const hit = results.getByRole('link').filter({ hasText: 'Billing export' });
    await hit.getByText(`billing-${suffix}`).waitFor();
    await results.getByRole('link').filter({ hasText: 'Rounding in calc' }).getByText(`calc-${suffix}`).waitFor();
    expect(await hit.locator('mark').first().innerText()).toBe(word);
    await screenshotOf(section, 'team-session-search');

    await hit.click();
    await page.waitForURL(`**/workspaces/${otherId}?session=${billing}`);
    await page.getByRole('heading', { level: 1, name: `billing-${suffix}` }).waitFor();

    // The IDE's own box searches only its workspace.
    const box = page.getByRole('search').getByRole('searchbox', { name: 'Search sessions' });
    await box.fill(word);
    const own = page.getByRole('search').getByRole('list', { name: 'Search results' });
    await own.getByRole('link').filter({ hasText: 'Billing export' }).waitFor();
    expect(await own.getByRole('link').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
