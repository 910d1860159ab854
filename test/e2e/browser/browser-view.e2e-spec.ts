import type { Locator, Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { waitFor } from '../../support/wait-for';
import { readWorkspaceFile, seedWorkspaceFiles, signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, screenshot, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import { LOGIN_FIXTURE_FILES, LOGIN_POINTS, LOGIN_PORT } from './login-fixture';

// The IDE's browser view in headless Chromium against the built stack: a login app started in a
// terminal of the workspace's sandbox is opened from the terminal's preview ("Open in browser
// view"); the view shows the sandbox browser's screencast, its address and tab title; the agent's
// browser sub-agent (scripted model, browser-view-login.json) signs in while the view shows its
// actions; then the user signs in by clicking and typing into the picture. The app's own log says
// what really happened.
const TIMEOUT_MS = 60_000;
const RUN_TIMEOUT_MS = 150_000;

const panelOf = (page: Page): Locator => page.getByRole('region', { name: 'Browser', exact: true });
const addressOf = (page: Page): Locator => panelOf(page).getByRole('textbox', { name: 'Address' });

async function waitForAddress(page: Page, pattern: RegExp): Promise<void> {
  await waitFor(`the address bar to show ${pattern}`, async () => pattern.test(await addressOf(page).inputValue()), TIMEOUT_MS);
}

/** Where a viewport point of the remote page is on the screen, the way the view draws frames (contain-fitted). */
async function screenPoint(page: Page, point: { x: number; y: number }): Promise<{ x: number; y: number }> {
  const screen = panelOf(page).getByTestId('browser-screen');
  const box = await screen.boundingBox();
  if (!box) throw new Error('the browser screen is not shown');
  const { width, height } = await screen.getByTestId('browser-frame').evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));
  // The fixture's viewport is the default one (1024x768); frames of it are at most 1280 wide, so 1:1.
  const viewport = { width: 1024, height: 768 };
  const scale = Math.min(box.width / width, box.height / height);
  const left = box.x + (box.width - width * scale) / 2;
  const top = box.y + (box.height - height * scale) / 2;
  return { x: left + (point.x / viewport.width) * width * scale, y: top + (point.y / viewport.height) * height * scale };
}

async function clickInPage(page: Page, point: { x: number; y: number }): Promise<void> {
  const at = await screenPoint(page, point);
  await page.mouse.click(at.x, at.y);
}

describe('browser view', () => {
  let owner: LaunchedBrowser;

  beforeAll(async () => {
    // A tall window: the bottom panel gets room for a readable page.
    owner = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 1000 } });
  });

  afterAll(async () => {
    await owner?.close();
  });

  it(
    'should show the agent signing in live, and let the user navigate, click and type in the view',
    async () => {
      const page = await owner.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
      seedWorkspaceFiles(workspaceId, LOGIN_FIXTURE_FILES);

      // The app started in a terminal is detected as a preview; its action opens it in the view.
      await showBottomTab(page, workspaceId, 'Terminal');
      const terminals = page.getByRole('region', { name: 'Terminals' });
      // Showing the panel with no terminal in the workspace opens one.
      await terminals.getByRole('tab', { name: /Terminal 1/, selected: true }).waitFor({ timeout: TIMEOUT_MS });
      await terminals.locator('[data-terminal-id]:not([hidden]) .xterm').click();
      await page.keyboard.type('node login-app/server.js');
      await page.keyboard.press('Enter');
      const preview = terminals.getByTestId('terminal-preview');
      await preview.getByText(`localhost:${LOGIN_PORT}`).waitFor({ timeout: TIMEOUT_MS });
      await preview.getByRole('button', { name: 'Open in browser view' }).click();

      await panelOf(page).waitFor({ timeout: TIMEOUT_MS });
      await waitForAddress(page, new RegExp(`^http://localhost:${LOGIN_PORT}/?$`));
      await panelOf(page).getByRole('tab', { name: 'Login fixture', selected: true }).waitFor({ timeout: TIMEOUT_MS });
      await panelOf(page).locator('[data-testid="browser-frame"][data-has-frame="true"]').waitFor({ timeout: TIMEOUT_MS });
      expect(await panelOf(page).getByTestId('browser-frame').getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
      // Nothing to go forward to yet; reload is on.
      expect(await panelOf(page).getByRole('button', { name: 'Forward' }).isDisabled()).toBe(true);
      expect(await panelOf(page).getByRole('button', { name: 'Reload' }).isDisabled()).toBe(false);
      await screenshot(page, 'browser-view-login');
      const frameOf = () => panelOf(page).getByTestId('browser-frame').getAttribute('src');
      const loginFrame = await frameOf();

      // The agent's browser sub-agent signs in while the view watches: its actions show as captions.
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      const actions = panelOf(page).getByTestId('browser-actions');
      const seen = Promise.all([
        actions.getByText(/^Browser Agent typed into <input[^>]*> "Email"$/).waitFor({ timeout: RUN_TIMEOUT_MS }),
        actions.getByText('Browser Agent clicked <button> "Sign In"').waitFor({ timeout: RUN_TIMEOUT_MS }),
      ]);
      await page.getByLabel('Message to the agent').fill('Sign into the login app in the browser, please.');
      await page.getByLabel('Message to the agent').press('Enter');
      await seen;
      await waitForAddress(page, /\/welcome\?user=alice%40example\.com$/);
      await panelOf(page).getByRole('tab', { name: 'Welcome', selected: true }).waitFor({ timeout: TIMEOUT_MS });
      await page.getByRole('region', { name: 'Transcript' }).locator('[data-run-end="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(readWorkspaceFile(workspaceId, 'login-app/logins.log')).toBe('ok alice@example.com\n');
      // Frames kept coming: the picture is another one than the login form's.
      expect(await frameOf()).not.toBe(loginFrame);
      await screenshot(page, 'browser-view-agent');

      // The user signs in again through the picture: the address bar opens the form, clicks land
      // on the fields, keys go to the page.
      await addressOf(page).fill(`localhost:${LOGIN_PORT}/`);
      await addressOf(page).press('Enter');
      await panelOf(page).getByRole('tab', { name: 'Login fixture', selected: true }).waitFor({ timeout: TIMEOUT_MS });
      await clickInPage(page, LOGIN_POINTS.email);
      await page.keyboard.type('alice@example.com');
      await clickInPage(page, LOGIN_POINTS.password);
      await page.keyboard.type('hunter2');
      await clickInPage(page, LOGIN_POINTS.signIn);
      await waitForAddress(page, /\/welcome\?user=alice%40example\.com$/);
      await panelOf(page).getByRole('tab', { name: 'Welcome', selected: true }).waitFor({ timeout: TIMEOUT_MS });
      expect(readWorkspaceFile(workspaceId, 'login-app/logins.log')).toBe('ok alice@example.com\nok alice@example.com\n');
      await screenshot(page, 'browser-view-welcome');

      // Back goes to the form; the address bar navigates (a bare host gets http://).
      await panelOf(page).getByRole('button', { name: 'Back' }).click();
      await waitForAddress(page, new RegExp(`^http://localhost:${LOGIN_PORT}/$`));
      await addressOf(page).fill(`localhost:${LOGIN_PORT}/welcome?user=bob`);
      await addressOf(page).press('Enter');
      await panelOf(page).getByTestId('browser-actions').getByText(`You opened http://localhost:${LOGIN_PORT}/welcome?user=bob`).waitFor({ timeout: TIMEOUT_MS });
      await waitForAddress(page, /\/welcome\?user=bob$/);
      expect(pageErrors).toEqual([]);
    },
    240_000,
  );
});

/** The workspace page with one of its bottom panel tabs shown. */
async function showBottomTab(page: Page, workspaceId: string, name: string): Promise<void> {
  if (!page.url().includes(`/workspaces/${workspaceId}`)) await page.goto(`/workspaces/${workspaceId}`);
  const tab = page.getByRole('tab', { name, exact: true });
  await page.locator('h1.ide-title').waitFor({ timeout: TIMEOUT_MS });
  // The bottom panel may be hidden (its state loads after the page): the command palette shows it.
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await tab.isVisible())) {
    if (Date.now() > deadline) throw new Error(`the ${name} tab did not appear`);
    await page.keyboard.press('Control+Shift+P');
    const palette = page.getByRole('combobox', { name: 'Run a command' });
    if (await palette.waitFor({ timeout: 3000 }).then(() => true, () => false)) {
      await palette.fill('>toggle panel');
      await page.keyboard.press('Enter');
      await tab.waitFor({ timeout: 3000 }).catch(() => undefined);
    }
  }
  await tab.click();
}
