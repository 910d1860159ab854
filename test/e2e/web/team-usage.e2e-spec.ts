import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { csrfHeader, signUpToReadyWorkspace } from '../console/console-helpers';
import { waitFor } from '../../support/wait-for';
import { baseUrl, screenshotOf, uniqueSuffix, watchPageErrors } from './web-helpers';

// Issue 15, point 4, in headless Chromium: the team page shows what a run cost (totals, the day's
// bar, per person, workspace and model); an owner sets a budget; once it is spent the page says so
// and a new message is refused with 402 BUDGET_EXCEEDED.
describe('web team usage and budget', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 1000 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should show a run\'s cost, take a budget, and say when it is spent', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const suffix = uniqueSuffix();
    const { workspaceId, workspaceName } = await signUpToReadyWorkspace(page, suffix);
    const { teamId } = (await (await page.request.get(`/api/v1/workspaces/${workspaceId}`)).json()) as { teamId: string };
    const headers = await csrfHeader(page);
    const session = (await (await page.request.post(`/api/v1/workspaces/${workspaceId}/sessions`, { data: { title: 'Costs', permissionMode: 'approve' }, headers })).json()) as { id: string };
    const posted = await page.request.post(`/api/v1/sessions/${session.id}/messages`, { data: { content: 'What does this cost?' }, headers });
    expect(posted.status()).toBe(202);
    const runId = ((await posted.json()) as { id: string }).id;
    const run = await waitFor('the run to end', async () => {
      const r = (await (await page.request.get(`/api/v1/runs/${runId}`)).json()) as { status: string };
      return ['completed', 'failed', 'cancelled'].includes(r.status) ? r : null;
    }, 60_000);
    expect(run.status).toBe('completed');

    await page.goto(`/teams/${teamId}`);
    const section = page.getByRole('region', { name: 'Usage and budget' });
    await section.getByTestId('usage-cost').filter({ hasNotText: /^\$0\.00$/ }).waitFor();
    await section.getByRole('table', { name: 'By workspace' }).getByRole('rowheader', { name: workspaceName }).waitFor();
    await section.getByRole('table', { name: 'By model' }).getByRole('rowheader', { name: 'deepseek-v4-flash' }).waitFor();
    await section.getByRole('table', { name: 'By person' }).getByRole('rowheader', { name: 'Grace Hopper' }).waitFor();
    // One day of the month had a run: one bar with height, its title saying the cost.
    const bars = section.getByTestId('usage-chart').locator('rect.usage-bar:not([height="0"])');
    expect(await bars.count()).toBe(1);
    expect(await bars.first().locator('title').textContent()).toMatch(/^\d{4}-\d{2}-\d{2}: \$0\.\d+, 1 run/);

    // The owner sets a budget the run already spent: the page says runs are refused.
    const form = section.getByRole('form', { name: 'Monthly budget' });
    await form.getByLabel('Monthly budget (USD)').fill('0');
    await form.getByRole('button', { name: 'Set budget' }).click();
    const alert = section.getByTestId('budget-status');
    await alert.getByText('Monthly budget reached.').waitFor();
    expect(await alert.innerText()).toMatch(/New runs are refused and running ones stopped until/);
    await screenshotOf(section, 'team-usage-budget');

    const refused = await page.request.post(`/api/v1/sessions/${session.id}/messages`, { data: { content: 'And now?' }, headers });
    expect(refused.status()).toBe(402);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('BUDGET_EXCEEDED');

    await form.getByRole('button', { name: 'Remove budget' }).click();
    await section.getByText('No monthly budget').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
