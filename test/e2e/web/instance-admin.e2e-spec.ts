import { Client } from 'pg';
import { request } from 'playwright-core';
import { QUEUE_BOARD_PATH } from '@h/contracts';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { TEST_DATABASE_URL } from '../../support/test-env';
import { csrfHeader, signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, logIn, screenshot, SecretLedger, signUpViaApi, uniqueSuffix, watchPageErrors } from './web-helpers';

/**
 * Only the instance's first account is an admin, and which account came first in the shared test
 * database is chance: the flag is set directly, on for this spec's admin and off for its owner.
 */
async function makeInstanceAdmin(email: string, notAdmin: string): Promise<void> {
  const db = new Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
  try {
    await db.query('UPDATE "User" SET "isInstanceAdmin" = (email = $1) WHERE email IN ($1, $2)', [email, notAdmin]);
  } finally {
    await db.end();
  }
}

// Issue 15, point 3, in headless Chromium against the built api, worker and web: an instance
// admin opens the Instance page from the header, sees a team with its running sandbox and opens
// the queue board; the team's owner (no instance admin: no header link) filters its audit log.
describe('web instance admin and audit log', () => {
  let ownerBrowser: LaunchedBrowser;
  let adminBrowser: LaunchedBrowser;
  const secrets = new SecretLedger();

  beforeAll(async () => {
    ownerBrowser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    adminBrowser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await ownerBrowser?.close();
    await adminBrowser?.close();
  });

  it('should show an instance admin the team and its running sandbox, open the queue board, and let the owner filter the audit log', async () => {
    const suffix = uniqueSuffix();
    const owner = await ownerBrowser.context.newPage();
    const ownerErrors = watchPageErrors(owner);
    const { workspaceId, workspaceName } = await signUpToReadyWorkspace(owner, suffix, { providerKey: false });
    await secrets.rememberCookies(ownerBrowser.context, 'owner');
    const { teamId } = (await (await owner.request.get(`/api/v1/workspaces/${workspaceId}`)).json()) as { teamId: string };
    const teamName = `Console ${suffix}`;

    // The instance admin signs up; the owner is none (even as the database's first account).
    const signups = await request.newContext({ baseURL: baseUrl() });
    const adminAccount = await signUpViaApi(signups, 'Ada Admin');
    await signups.dispose();
    secrets.remember('admin password', adminAccount.password);
    await makeInstanceAdmin(adminAccount.email, `e2e-console-${suffix}@example.com`);

    // No Instance link for the owner, and the api refuses the page's data and the board.
    await owner.reload();
    const ownerNav = owner.getByRole('navigation', { name: 'Main' });
    await ownerNav.getByRole('link', { name: 'Teams' }).waitFor();
    expect(await ownerNav.getByRole('link', { name: 'Instance' }).count()).toBe(0);
    expect((await owner.request.get('/api/v1/admin/teams')).status()).toBe(403);
    expect((await owner.request.get(QUEUE_BOARD_PATH)).status()).toBe(403);

    // The instance admin signs in and goes to the Instance page from the header.
    const admin = await adminBrowser.context.newPage();
    const adminErrors = watchPageErrors(admin);
    await admin.goto('/login');
    await logIn(admin, adminAccount.email, adminAccount.password);
    await admin.waitForURL('**/teams');
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instance' }).click();
    await admin.waitForURL('**/admin');
    await admin.getByRole('heading', { level: 1, name: 'Instance' }).waitFor();

    const teamRow = admin.getByTestId(`instance-team-${teamId}`);
    await teamRow.getByRole('link', { name: teamName }).waitFor();
    // Team, members, workspaces, runs, cost, budget, sandboxes running, active runs, created.
    const cells = await teamRow.locator('td').allTextContents();
    expect(cells.slice(0, 6)).toEqual(['1', '1', '0', '$0.00', 'none', '1']);
    const sandboxRow = admin.getByTestId(`instance-sandbox-${workspaceId}`);
    await sandboxRow.getByRole('link', { name: workspaceName }).waitFor();
    await sandboxRow.getByText('running', { exact: true }).waitFor();
    await sandboxRow.getByText(teamName).waitFor();
    await admin.getByRole('table', { name: 'Quotas' }).getByText('TEAM_MAX_WORKSPACES').waitFor();
    await screenshot(admin, 'instance-page');

    // The queue board: the api's own page under /api, with H's queues.
    await admin.getByTestId('queue-board-link').click();
    await admin.waitForURL(`**${QUEUE_BOARD_PATH}`);
    await admin.getByText('H queues').first().waitFor();
    await admin.getByText('workspace', { exact: true }).first().waitFor();
    await admin.getByText('agent', { exact: true }).first().waitFor();
    await screenshot(admin, 'queue-board');

    // The board's own Pause: its axios write carries H's CSRF token (XSRF-TOKEN / X-XSRF-TOKEN).
    const isPaused = async () =>
      ((await (await admin.request.get(`${QUEUE_BOARD_PATH}/api/queues`)).json()) as { queues: { name: string; isPaused: boolean }[] }).queues.find((q) => q.name === 'agent')?.isPaused;
    await admin.goto(`${QUEUE_BOARD_PATH}/queue/agent`);
    try {
      await admin.locator('button[aria-haspopup="menu"]').first().click();
      await admin.getByRole('menuitem', { name: 'Pause' }).click();
      const confirm = admin.getByRole('button', { name: 'Confirm' });
      if (await confirm.isVisible()) await confirm.click();
      await admin.waitForFunction(async (path) => {
        const res = await fetch(`${path}/api/queues`);
        return ((await res.json()) as { queues: { name: string; isPaused: boolean }[] }).queues.some((q) => q.name === 'agent' && q.isPaused);
      }, QUEUE_BOARD_PATH);
      expect(await isPaused()).toBe(true);
    } finally {
      const xsrf = (await adminBrowser.context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
      await admin.request.put(`${QUEUE_BOARD_PATH}/api/queues/agent/resume`, { headers: { 'x-xsrf-token': xsrf } });
    }
    expect(await isPaused()).toBe(false);

    // The owner's audit log: an invitation and two tokens give entries of three kinds.
    const headers = await csrfHeader(owner);
    expect((await owner.request.post(`/api/v1/teams/${teamId}/members`, { data: { role: 'viewer' }, headers })).status()).toBe(201);
    for (const name of ['audit-one', 'audit-two']) {
      const token = await owner.request.post(`/api/v1/teams/${teamId}/tokens`, { data: { name, scopes: ['read'] }, headers });
      expect(token.status()).toBe(201);
      secrets.remember(`token ${name}`, ((await token.json()) as { secret: string }).secret);
    }
    await owner.goto(`/teams/${teamId}`);
    const audit = owner.getByRole('region', { name: 'Audit log' });
    const rows = audit.getByTestId('audit-row');
    await rows.first().waitFor();
    const actions = async () => audit.locator('[data-testid="audit-row"] td:nth-child(2)').allTextContents();
    expect(await actions()).toEqual(expect.arrayContaining(['token.create', 'member.invite', 'workspace.create', 'team.create']));

    await audit.getByLabel('Action').fill('token');
    await audit.getByRole('button', { name: 'Filter' }).click();
    await owner.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="audit-row"] td:nth-child(2)')).every((td) => td.textContent === 'token.create'));
    expect(await actions()).toEqual(['token.create', 'token.create']);
    await rows.first().getByText('Grace Hopper').waitFor();
    await screenshot(owner, 'team-audit-filtered');

    // The person and the dates narrow it further: nobody else acted, and nothing happened tomorrow.
    await audit.getByLabel('Action').fill('');
    await audit.getByLabel('Person').selectOption({ label: (await audit.getByLabel('Person').locator('option').nth(1).textContent()) ?? '' });
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await audit.getByLabel('From').fill(day);
    await audit.getByRole('button', { name: 'Filter' }).click();
    await audit.getByText('No entries match.').waitFor();
    await audit.getByRole('button', { name: 'Clear' }).click();
    await rows.nth(3).waitFor();
    expect(await audit.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);

    expect(ownerErrors).toEqual([]);
    expect(adminErrors).toEqual([]);
    expect(secrets.foundInLogs()).toEqual([]);
  });
});
