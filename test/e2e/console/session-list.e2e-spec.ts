import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import { csrfHeader, signUpToReadyWorkspace } from './console-helpers';

// A workspace with many sessions: the open session's console stays in sight below the list
// (the list scrolls in its own box) instead of being pushed out of the agent pane.
const SESSIONS = 16;

describe('sessions list in the agent pane', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should keep the open session in view when the workspace has many sessions', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
    const headers = await csrfHeader(page);
    let last = '';
    for (let i = 1; i <= SESSIONS; i++) {
      const made = await page.request.post(`/api/v1/workspaces/${workspaceId}/sessions`, { data: { title: `Task ${i}` }, headers });
      expect(made.status()).toBe(201);
      last = ((await made.json()) as { id: string }).id;
    }
    await page.goto(`/workspaces/${workspaceId}?session=${last}`);
    const list = page.getByRole('complementary', { name: 'Agent console' }).locator('.session-list');
    await list.getByText(`Task ${SESSIONS}`).waitFor();
    const title = page.locator('#console-title');
    await title.waitFor();
    // Every session is still listed (the first one by scrolling the list), and the open session's
    // title is within the window without scrolling the pane past the list.
    expect(await list.locator('li').count()).toBe(SESSIONS);
    const listBox = await list.boundingBox();
    const titleBox = await title.boundingBox();
    expect(listBox && listBox.height).toBeLessThanOrEqual(260);
    expect(titleBox && titleBox.y + titleBox.height).toBeLessThan(800);
    await list.getByText('Task 1', { exact: true }).click();
    await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
    await page.locator('#console-title').getByText('Task 1', { exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
