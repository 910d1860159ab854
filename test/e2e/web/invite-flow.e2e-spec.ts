import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, screenshot, SecretLedger, signUpViaApi, uniqueSuffix, watchPageErrors } from './web-helpers';

// Issue 8, point 6: people join by invitation links. An admin makes a link on the team page; a
// newcomer opens it in another browser, signs up there and lands in the team with the link's role.
describe('web invitation flow', () => {
  let browser: LaunchedBrowser;
  const secrets = new SecretLedger();

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl() });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should let a newcomer open an invitation link, sign up and land in the team as its member', async () => {
    const adminPage = await browser.context.newPage();
    const adminErrors = watchPageErrors(adminPage);
    secrets.remember('admin password', (await signUpViaApi(adminPage.request, 'Ida Inviter')).password);
    const teamName = `Guild ${uniqueSuffix()}`;
    await adminPage.goto('/teams');
    await adminPage.getByLabel('Team name').fill(teamName);
    await adminPage.getByRole('button', { name: 'Create team' }).click();
    await adminPage.getByRole('link', { name: teamName }).click();
    await adminPage.getByRole('heading', { level: 1, name: teamName }).waitFor();
    const teamId = new URL(adminPage.url()).pathname.split('/').pop() as string;

    await adminPage.getByLabel('Role', { exact: true }).selectOption('member');
    await adminPage.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await adminPage.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    secrets.remember('invitation token', link.split('/').pop());
    await screenshot(adminPage, 'invite-created');

    // Another browser profile: no session, no cookies shared with the admin's.
    const second = await launchBrowser({ baseURL: baseUrl() });
    const other = second.context;
    try {
      const page = await other.newPage();
      const pageErrors = watchPageErrors(page);
      const suffix = uniqueSuffix();
      const email = `e2e-invited-${suffix}@example.com`;
      const password = `invited pass ${suffix}`;
      secrets.remember('invitee password', password);
      await page.goto(link);
      await page.getByText(`Ida Inviter invites you to ${teamName} as`).waitFor();
      await page.getByRole('heading', { name: `Create your account to join ${teamName}` }).waitFor();
      await page.getByLabel('Name').fill('Nia Newcomer');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await screenshot(page, 'invite-signup');
      await page.getByRole('button', { name: 'Create account' }).click();

      await page.waitForURL(`**/teams/${teamId}`);
      await page.getByRole('heading', { level: 1, name: teamName }).waitFor();
      await page.getByText('your role:').getByText('Member').waitFor();
      await secrets.rememberCookies(other, 'invitee');
      expect(pageErrors).toEqual([]);

      // The link was for one person: opened again, it says so.
      const late = await other.newPage();
      await late.context().clearCookies();
      await late.goto(link);
      await late.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    } finally {
      await second.close();
    }

    // The admin sees the newcomer among the members, and the link gone from the pending ones.
    await adminPage.reload();
    await adminPage.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'Nia Newcomer' }).waitFor();
    expect(await adminPage.getByRole('table', { name: 'Pending invitations' }).count()).toBe(0);
    expect(adminErrors).toEqual([]);
    await adminPage.close();
  });

  it('should have written none of the secrets it typed or received to any log', () => {
    expect(secrets.foundInLogs()).toEqual([]);
  });
});
