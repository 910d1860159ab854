import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, logIn, openWorkspaceSettings, screenshot, SecretLedger, signUpViaApi, uniqueSuffix, watchPageErrors } from './web-helpers';

// Drives the real pages in headless Chromium against the api + worker + web that the e2e global
// setup started (H_BASE_URL): the acceptance path from sign-up to a ready workspace.
// The worker provisions a workspace asynchronously; the page polls until it is ready.
const READY_TIMEOUT_MS = 60_000;

describe('web sign-up flow', () => {
  let browser: LaunchedBrowser;
  const secrets = new SecretLedger();

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl() });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should sign up, create a team and a workspace, and still see them after reload and a new login', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const suffix = uniqueSuffix();
    const email = `e2e-${suffix}@example.com`;
    const password = `correct horse ${suffix}`;
    secrets.remember('password typed at sign-up', password);
    const teamName = `Platform ${suffix}`;
    const workspaceName = `checkout-service-${suffix}`;

    // The root sends a visitor without a session to the login page.
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/signup');

    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await screenshot(page, 'signup');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL('**/teams');
    await secrets.rememberCookies(browser.context, 'new user');
    await page.getByTestId('current-user').filter({ hasText: email }).waitFor();
    await page.getByText('You are not a member of any team yet').waitFor();

    await page.getByLabel('Team name').fill(teamName);
    await page.getByRole('button', { name: 'Create team' }).click();
    const teamLink = page.getByRole('list', { name: 'Teams' }).getByRole('link', { name: teamName });
    await teamLink.waitFor();
    await screenshot(page, 'teams');

    await teamLink.click();
    await page.waitForURL('**/teams/*');
    await page.getByRole('heading', { level: 1, name: teamName }).waitFor();

    await page.getByLabel('Workspace name').fill(workspaceName);
    await page.getByLabel('Description (optional)').fill('Payments and checkout API');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const workspaceRow = page.getByTestId('workspace-row').filter({ hasText: workspaceName });
    await workspaceRow.waitFor();
    await workspaceRow.locator('[data-status="ready"]').waitFor({ timeout: READY_TIMEOUT_MS });
    await screenshot(page, 'team');

    // Everything shown came from the api, so a reload shows it again.
    await page.reload();
    await page.getByTestId('workspace-row').filter({ hasText: workspaceName }).waitFor();

    await workspaceRow.getByRole('link', { name: workspaceName }).click();
    await page.waitForURL('**/workspaces/*');
    await page.getByRole('heading', { level: 1, name: workspaceName }).waitFor();
    await openWorkspaceSettings(page);
    await page.getByText('This workspace is set up and ready.').waitFor();
    await screenshot(page, 'workspace');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    // The session is gone: a signed-in page sends the browser back to login.
    await page.goto('/teams');
    await page.waitForURL('**/login?next=%2Fteams');

    await logIn(page, email, password);
    await page.waitForURL('**/teams');
    await page.getByRole('list', { name: 'Teams' }).getByRole('link', { name: teamName }).click();
    await page.getByTestId('workspace-row').filter({ hasText: workspaceName }).waitFor();

    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('should show the api error message when the password is wrong', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    // The account exists (created over the real api), then the login page is used with a wrong password.
    const account = await signUpViaApi(page.request, 'Grace Hopper');
    await page.context().clearCookies();

    await page.goto('/login');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/login'));
    secrets.remember('wrong password', `${account.password} but wrong`);
    await logIn(page, account.email, `${account.password} but wrong`);
    const response = await answer;
    expect(response.status()).toBe(401);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_CREDENTIALS');

    await page.locator('.form-error').filter({ hasText: body.error.message }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-error');

    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('should show no sign-up form before it knows sign-up is open, and the invitation notice instead of a form the server would refuse', async () => {
    // This stack's policy is open; the answer is held, then given as an invite-only instance's
    // would be, so the page's two states can be seen in order.
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const held = new Promise<() => Promise<void>>((asked) => {
      void page.route('**/api/v1/auth/signup', async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        asked(() => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ signup: 'invite' }) }));
      });
    });
    await page.goto('/signup');
    const answer = await held;
    await page.getByText('Checking whether sign-up is open here…').waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);

    await answer();
    await page.getByTestId('signup-unavailable').getByText('needs an invitation link').waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('should keep the passwords and cookies of these sign-ins out of the logs', () => {
    expect(secrets.foundInLogs()).toEqual([]);
  });
});
