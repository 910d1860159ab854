import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, screenshotOf, uniqueSuffix, watchPageErrors } from './web-helpers';

// Issue 14, point 1, in headless Chromium: Settings → Memory lists what is remembered, adds an
// entry, edits it (the old value stays in its history), filters by scope and forgets it.
describe('web memory settings', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should add, edit with history, filter and forget a memory', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
    await page.goto(`/workspaces/${workspaceId}/settings`);
    const section = page.getByRole('region', { name: 'Memory' });
    await section.getByText('Nothing remembered yet.').waitFor();

    await section.getByText('Remember something').click();
    const form = section.getByRole('form', { name: 'Remember something' });
    await form.getByLabel('Scope').selectOption('project');
    await form.getByLabel('Key').fill('Indent Style');
    await form.getByLabel('Value').fill('Two spaces');
    await form.getByLabel('Category').selectOption('convention');
    await form.getByRole('button', { name: 'Remember' }).click();
    const card = section.getByTestId('memory').filter({ hasText: 'Indent Style' });
    await card.getByText('Two spaces').waitFor();

    // The history is open while the entry is edited: the saved edit shows up in it without reopening.
    await card.getByRole('button', { name: 'History' }).click();
    const history = card.getByRole('list', { name: 'History of Indent Style' });
    await history.getByText('Two spaces').waitFor();
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('Value').fill('Four spaces');
    await card.getByRole('button', { name: 'Save memory' }).click();
    await card.getByRole('button', { name: 'Save memory' }).waitFor({ state: 'detached' });
    await card.locator('.memory-content', { hasText: 'Four spaces' }).waitFor();
    await history.getByText('Four spaces').waitFor();
    expect(await history.innerText()).toMatch(/^create\b[^\n]*Two spaces\s+update\b[^\n]*Four spaces$/);
    await screenshotOf(section, 'settings-memory');

    await section.getByLabel('Show').selectOption('user');
    await section.getByText('Nothing remembered yet.').waitFor();
    await section.getByLabel('Show').selectOption('');
    await card.getByRole('button', { name: 'Forget' }).click();
    await card.getByRole('button', { name: 'Confirm forget' }).click();
    await section.getByText('Nothing remembered yet.').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
