import { request } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, deepSeekKeySection, logIn, openWorkspaceSettings, screenshot, SecretLedger, signUpViaApi, uniqueSuffix, watchPageErrors } from './web-helpers';

// The team page's admin parts in headless Chromium against the real api: an API token shown once
// that really authenticates until it is revoked, a DeepSeek key that is stored but never shown,
// and a viewer who sees the team without any write controls.
describe('web team administration', () => {
  let browser: LaunchedBrowser;
  const secrets = new SecretLedger();

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl() });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function statusWithToken(secret: string, path: string): Promise<number> {
    const bot = await request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: { authorization: `Bearer ${secret}` } });
    try {
      return (await bot.get(path)).status();
    } finally {
      await bot.dispose();
    }
  }

  it('should manage tokens, the DeepSeek key and members, and show a viewer no write controls', async () => {
    const signups = await request.newContext({ baseURL: baseUrl() });
    const viewer = await signUpViaApi(signups, 'Vera Viewer');
    await signups.dispose();

    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const owner = await signUpViaApi(page.request, 'Owen Owner');
    secrets.remember('owner password', owner.password);
    secrets.remember('viewer password', viewer.password);
    await secrets.rememberCookies(browser.context, 'owner');
    const teamName = `Infra ${uniqueSuffix()}`;

    await page.goto('/teams');
    await page.getByLabel('Team name').fill(teamName);
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('link', { name: teamName }).click();
    await page.getByRole('heading', { level: 1, name: teamName }).waitFor();
    const teamId = new URL(page.url()).pathname.split('/').pop() as string;

    // API token: the secret appears once, can be copied, and works as a bearer token.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByLabel('Token name').fill('ci-bot');
    // The scope choice explains itself: a CI bot drives the agent, so it gets run.
    const scope = page.getByLabel('Permissions');
    expect(await scope.locator('option').allTextContents()).toEqual(['Read', 'Run the agent', 'Read and write', 'Admin']);
    await scope.selectOption('run');
    await page.locator('#token-scope-help').getByText('drive the agent', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretInput = page.getByRole('textbox', { name: 'New API token' });
    await secretInput.waitFor();
    const secret = await secretInput.inputValue();
    expect(secret).toMatch(/^h_/);
    secrets.remember('API token', secret);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const tokenRow = page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: 'ci-bot' });
    await tokenRow.waitFor();
    await tokenRow.getByText('Run the agent').waitFor();
    expect(await statusWithToken(secret, `/api/v1/teams/${teamId}/workspaces`)).toBe(200);
    await screenshot(page, 'team-token-created');

    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await tokenRow.waitFor();
    expect(await page.content()).not.toContain(secret);

    await tokenRow.getByRole('button', { name: 'Revoke' }).click();
    await tokenRow.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByText('No API tokens.').waitFor();
    expect(await statusWithToken(secret, `/api/v1/teams/${teamId}/workspaces`)).toBe(401);

    // DeepSeek key: stored, reported as configured, never shown back.
    const providerKey = `sk-e2e-${uniqueSuffix()}`;
    secrets.remember('DeepSeek key', providerKey);
    const providerStatus = deepSeekKeySection(page).getByTestId('provider-status');
    await providerStatus.getByText('Not configured').waitFor();
    await deepSeekKeySection(page).getByLabel('API key', { exact: true }).fill(providerKey);
    await deepSeekKeySection(page).getByRole('button', { name: 'Save key' }).click();
    await providerStatus.getByText('Configured', { exact: true }).waitFor();
    await page.reload();
    await providerStatus.getByText('Configured', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(providerKey);
    await page.getByRole('button', { name: 'Remove key' }).click();
    await page.getByRole('button', { name: 'Confirm remove' }).click();
    await providerStatus.getByText('Not configured').waitFor();

    // Members: an invitation link for a viewer, shown once; a second one is revoked.
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${baseUrl()}/invite/[A-Za-z0-9_-]{43}$`));
    secrets.remember('invitation link', link.split('/').pop());
    await page.getByRole('button', { name: 'Done' }).click();
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await pending.getByRole('row').filter({ hasText: 'Viewer' }).waitFor();
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    // A header row and two invitations; the newest (a member's) is revoked.
    await pending.getByRole('row').nth(2).waitFor();
    await pending.getByRole('row').nth(1).getByRole('button', { name: 'Revoke' }).click();
    await pending.getByRole('row').nth(1).getByRole('button', { name: 'Confirm revoke' }).click();
    await pending.getByRole('row').nth(2).waitFor({ state: 'detached' });
    expect(await pending.getByRole('row').nth(1).textContent()).toContain('Viewer');
    await page.getByRole('table', { name: 'Limits' }).getByRole('row').filter({ hasText: 'Workspaces' }).waitFor();
    await screenshot(page, 'team-admin');
    expect(await page.content()).not.toContain(link);

    // The viewer (who has an account) opens the link, joins, and lands in the team.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await logIn(page, viewer.email, viewer.password);
    await page.waitForURL('**/teams');
    await secrets.rememberCookies(browser.context, 'viewer');
    await page.goto(link);
    await page.getByRole('button', { name: `Join ${teamName}` }).click();
    await page.waitForURL(`**/teams/${teamId}`);
    await page.getByRole('heading', { level: 1, name: teamName }).waitFor();

    // The viewer sees the team and its members but no control that would write.
    await page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: owner.email }).waitFor();
    await deepSeekKeySection(page).getByTestId('provider-status').waitFor();
    for (const control of ['Create workspace', 'Create invitation link', 'Create token', 'Save key']) {
      expect(await page.getByRole('button', { name: control }).count()).toBe(0);
    }
    expect(await page.getByRole('heading', { name: 'API tokens' }).count()).toBe(0);
    await screenshot(page, 'team-viewer');

    expect(pageErrors).toEqual([]);
    await page.close();
  });
  it('should rename a workspace, open its network and delete it from its page', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    await page.context().clearCookies();
    secrets.remember('admin password', (await signUpViaApi(page.request, 'Ada Admin')).password);
    const teamName = `Labs ${uniqueSuffix()}`;

    await page.goto('/teams');
    await page.getByLabel('Team name').fill(teamName);
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('link', { name: teamName }).click();
    await page.getByLabel('Workspace name').fill('scratch');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('link', { name: 'scratch' }).click();
    await page.waitForURL('**/workspaces/*');
    await page.getByRole('heading', { level: 1, name: 'scratch' }).waitFor();
    // A ready workspace opens as the IDE; its settings are the "Workspace" side view.
    await openWorkspaceSettings(page);

    await page.getByLabel('Name', { exact: true }).fill('billing-service');
    await page.getByLabel('Description', { exact: true }).fill('Invoices and payment webhooks');
    await page.getByLabel('Allow network access from the sandbox').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'billing-service' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'billing-service' }).waitFor();
    await openWorkspaceSettings(page);
    await page.getByText('Invoices and payment webhooks').first().waitFor();
    expect(await page.getByLabel('Allow network access from the sandbox').isChecked()).toBe(true);
    await screenshot(page, 'workspace-settings');

    await page.getByRole('button', { name: 'Delete workspace' }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await page.waitForURL('**/teams/*');
    await page.getByText('No workspaces yet.').waitFor();

    expect(pageErrors).toEqual([]);
    await page.close();
  });

  // Runs last: everything above went through the browser, the api's proxy and the web server.
  it('should keep every password, token, cookie and key it used out of the logs', () => {
    expect(secrets.foundInLogs()).toEqual([]);
  });
});
