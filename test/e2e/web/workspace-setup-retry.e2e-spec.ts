import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { type GitServer, startGitServer } from '../../support/git-server';
import { baseUrl, screenshot, signUpViaApi, uniqueSuffix, watchPageErrors } from './web-helpers';

// A workspace whose setup failed (here: the repository was not on the git server yet) is set up
// again from its page once the cause is mended, without deleting and re-creating it.
const READY_TIMEOUT_MS = 120_000;

describe('workspace setup retry', () => {
  let git: GitServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    git = await startGitServer();
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await git?.close();
  });

  it(
    'should show why a clone failed and clone again with "Retry setup" once the repository exists',
    async () => {
      const suffix = uniqueSuffix();
      const page = await browser.context.newPage();
      const pageErrors = watchPageErrors(page);
      await signUpViaApi(page.request, 'Linus Torvalds');
      await page.goto('/teams');
      await page.getByLabel('Team name').fill(`Retry ${suffix}`);
      await page.getByRole('button', { name: 'Create team' }).click();
      await page.getByRole('list', { name: 'Teams' }).getByRole('link', { name: `Retry ${suffix}` }).click();

      const name = `later-${suffix}`;
      await page.getByLabel('Workspace name').fill(name);
      await page.getByLabel('Files', { exact: true }).selectOption('git');
      await page.getByLabel('Repository URL').fill(git.url('later'));
      await page.getByLabel('Access token (optional)').fill(git.token);
      await page.getByRole('button', { name: 'Create workspace' }).click();
      const row = page.getByTestId('workspace-row').filter({ hasText: name });
      await row.locator('[data-status="error"]').waitFor({ timeout: READY_TIMEOUT_MS });
      await row.getByRole('link', { name }).click();
      await page.getByRole('button', { name: 'Retry setup' }).waitFor();
      await screenshot(page, 'workspace-setup-failed');

      // The repository is pushed meanwhile; the retry clones it and the page becomes the IDE.
      await git.createRepo('later', { 'README.md': '# later\n' });
      await page.getByRole('button', { name: 'Retry setup' }).click();
      await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'README.md' }).waitFor({ timeout: READY_TIMEOUT_MS });
      expect(pageErrors).toEqual([]);
    },
    READY_TIMEOUT_MS * 2 + 30_000,
  );
});
