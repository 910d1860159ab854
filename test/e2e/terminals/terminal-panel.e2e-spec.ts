import { type Locator, type Page, request } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, logIn, screenshot, signUpViaApi, uniqueSuffix, watchPageErrors } from '../web/web-helpers';

// The IDE's terminal panel in headless Chromium against the built stack: a shell in the
// workspace's sandbox, typed into through xterm.js; a reload reattaches to the same shell with its
// output once; a viewer in another browser watches it live and cannot type.
const TIMEOUT_MS = 60_000;

function panelOf(page: Page): Locator {
  return page.getByRole('region', { name: 'Terminals' });
}

/** The text xterm shows for the active terminal (its DOM rows). */
async function screenText(page: Page): Promise<string> {
  return panelOf(page).locator('[data-terminal-id]:not([hidden]) .xterm-rows').innerText();
}

async function waitForScreen(page: Page, text: string): Promise<void> {
  await panelOf(page).locator('[data-terminal-id]:not([hidden]) .xterm-rows').getByText(text).first().waitFor({ timeout: TIMEOUT_MS });
}

async function typeInto(page: Page, keys: string): Promise<void> {
  await panelOf(page).locator('[data-terminal-id]:not([hidden]) .xterm').click();
  await page.keyboard.type(keys);
  await page.keyboard.press('Enter');
}

describe('terminal panel', () => {
  let owner: LaunchedBrowser;
  let watcher: LaunchedBrowser;

  beforeAll(async () => {
    owner = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    watcher = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  });

  afterAll(async () => {
    await owner?.close();
    await watcher?.close();
  });

  it(
    'should run a command in a terminal tab, reattach after a reload without duplicates, and show it live to a read-only viewer',
    async () => {
      const page = await owner.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId, inviteLink } = await signUpToReadyWorkspace(page, uniqueSuffix(), { inviteViewer: true });
      await openTerminals(page, workspaceId);

      // Showing the panel in a workspace with no terminal opens one, as in VS Code.
      await panelOf(page).getByRole('tab', { name: /Terminal 1/, selected: true }).waitFor({ timeout: TIMEOUT_MS });
      await typeInto(page, 'echo first-$((40+2))');
      await waitForScreen(page, 'first-42');
      await screenshot(page, 'terminal-first-command');

      // The status bar's toggle hides the panel and shows it again with the same shell on screen.
      await page.getByTestId('status-toggle-terminals').click();
      await panelOf(page).waitFor({ state: 'hidden', timeout: TIMEOUT_MS });
      await page.getByTestId('status-toggle-terminals').click();
      await waitForScreen(page, 'first-42');

      // Ctrl/⌘+` shows it with the keyboard at the prompt, as in VS Code: typed without a click.
      await page.getByTestId('status-toggle-terminals').click();
      await panelOf(page).waitFor({ state: 'hidden', timeout: TIMEOUT_MS });
      await page.locator('h1.ide-title').click();
      await page.keyboard.press('Control+`');
      await waitForScreen(page, 'first-42');
      await page.keyboard.type('echo keys-$((6*7))');
      await page.keyboard.press('Enter');
      await waitForScreen(page, 'keys-42');

      // A reload attaches to the same shell: its output is back once, and it still runs.
      await page.reload();
      await openTerminals(page, workspaceId);
      await waitForScreen(page, 'first-42');
      await typeInto(page, 'echo second-$((1+1))');
      await waitForScreen(page, 'second-2');
      expect((await screenText(page)).split('first-42').length - 1).toBe(1);
      // With a shell there already, showing the panel opens no other.
      expect(await panelOf(page).getByRole('tab').count()).toBe(1);

      // A viewer watches the same terminal live, with a read-only notice, and cannot type.
      const signups = await request.newContext({ baseURL: baseUrl() });
      const viewer = await signUpViaApi(signups, 'Vic Viewer');
      await signups.dispose();
      const other = await watcher.context.newPage();
      const otherErrors = watchPageErrors(other);
      await other.goto('/login');
      await logIn(other, viewer.email, viewer.password);
      await other.waitForURL('**/teams');
      await other.goto(inviteLink as string);
      await other.getByRole('button', { name: /^Join / }).click();
      await other.waitForURL(/\/teams\/[0-9a-f-]{36}$/);
      await openTerminals(other, workspaceId);
      await panelOf(other).getByText('Read-only: viewers watch the team').waitFor();
      expect(await panelOf(other).getByRole('button', { name: '+ New terminal' }).count()).toBe(0);
      await waitForScreen(other, 'second-2');
      await typeInto(page, 'echo live-$((5+5))');
      await waitForScreen(other, 'live-10');
      await typeInto(other, 'echo viewer-$((9+9))');
      await typeInto(page, 'echo after-$((2+2))');
      await waitForScreen(other, 'after-4');
      expect(await screenText(page)).not.toContain('viewer-18');
      // A rename (double-click the tab) reaches the viewer's tab too.
      await panelOf(page).getByRole('tab', { name: /Terminal 1/ }).dblclick();
      await panelOf(page).getByLabel('Terminal name').fill('dev shell');
      await page.keyboard.press('Enter');
      await panelOf(other).getByRole('tab', { name: 'dev shell' }).waitFor({ timeout: TIMEOUT_MS });
      await screenshot(other, 'terminal-viewer');

      // A second shell that exits by itself stays as ended, its history kept on the server: a
      // reload shows it read-only beside the live one, until a member dismisses it.
      await panelOf(page).getByRole('button', { name: '+ New terminal' }).click();
      // Typed only once the new tab is the one shown (typing earlier would go to Terminal 1).
      await panelOf(page).getByRole('tab', { name: /Terminal 2/, selected: true }).waitFor();
      await typeInto(page, 'echo last-$((3+4)); exit 3');
      await panelOf(page).getByRole('tab', { name: /Terminal 2 \(ended\)/ }).waitFor({ timeout: TIMEOUT_MS });
      await panelOf(other).getByRole('tab', { name: /Terminal 2 \(ended\)/ }).waitFor({ timeout: TIMEOUT_MS });
      await other.reload();
      await openTerminals(other, workspaceId);
      await panelOf(other).getByRole('tab', { name: /Terminal 2 \(ended\)/ }).click();
      await waitForScreen(other, 'last-7');
      await waitForScreen(other, 'ended with code 3');
      await panelOf(page).getByRole('button', { name: 'Dismiss terminal 2' }).click();
      await panelOf(other).getByRole('tab', { name: /Terminal 2/ }).waitFor({ state: 'detached', timeout: TIMEOUT_MS });

      // Closing the tab ends the shell for everyone.
      await panelOf(page).getByRole('button', { name: 'Close terminal 1' }).click();
      await panelOf(other).getByText('No terminals are open in this workspace.').waitFor({ timeout: TIMEOUT_MS });

      // When every shell has ended (it exited, or its sandbox stopped), showing the panel again
      // opens a running one beside the history, instead of leaving only a read-only screen.
      await panelOf(page).getByRole('button', { name: '+ New terminal' }).click();
      await panelOf(page).getByRole('tab', { name: /Terminal 1/, selected: true }).waitFor({ timeout: TIMEOUT_MS });
      await typeInto(page, 'exit 0');
      await panelOf(page).getByRole('tab', { name: /Terminal 1 \(ended\)/ }).waitFor({ timeout: TIMEOUT_MS });
      await page.reload();
      await openTerminals(page, workspaceId);
      await panelOf(page).getByRole('tab', { name: /^Terminal \d$/, selected: true }).waitFor({ timeout: TIMEOUT_MS });
      expect(await panelOf(page).getByRole('tab', { name: /\(ended\)$/ }).count()).toBe(1);
      await typeInto(page, 'echo fresh-$((8+1))');
      await waitForScreen(page, 'fresh-9');
      expect(pageErrors).toEqual([]);
      expect(otherErrors).toEqual([]);
    },
    240_000,
  );
});

/** The workspace page with its terminal panel shown, through the status bar's Terminal toggle as a newcomer finds it. */
async function openTerminals(page: Page, workspaceId: string): Promise<void> {
  if (!page.url().includes(`/workspaces/${workspaceId}`)) await page.goto(`/workspaces/${workspaceId}`);
  const toggle = page.getByTestId('status-toggle-terminals');
  await page.locator('h1.ide-title').waitFor({ timeout: TIMEOUT_MS });
  await toggle.waitFor({ timeout: TIMEOUT_MS });
  // The panel's stored state (kept per user) loads after the page and may show the terminal by
  // itself meanwhile: a click is made only while the toggle says hidden, again until it shows.
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await panelOf(page).isVisible())) {
    if (Date.now() > deadline) throw new Error('the terminal panel did not appear');
    if ((await toggle.getAttribute('aria-pressed')) === 'false') await toggle.click();
    await panelOf(page).waitFor({ timeout: 3000 }).catch(() => undefined);
  }
  expect(await toggle.getAttribute('aria-pressed')).toBe('true');
}
