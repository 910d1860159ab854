import { execFileSync } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import { CSRF_COOKIE, CSRF_HEADER } from '@h/contracts';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { type GitServer, startGitServer } from '../../support/git-server';
import { loadScenario } from '../console/console-helpers';
import { baseUrl, deepSeekKeySection, screenshot, signUpViaApi, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import '../../support/monaco-window';

// Issue 10's acceptance, as one story in headless Chromium against the built stack (api, worker,
// web, a real sandbox; only the model is the scripted server, replaying acceptance-ide.json):
// a workspace cloned from a repository served on loopback, an edit saved in the IDE and seen in a
// terminal's `git diff`, the agent's edit reviewed (Reject restores it, the agent is told), its
// server started with run_in_terminal after approval with the URL detected, a reload mid-run, two
// people sharing the run and its approvals, a save conflict resolved, and the commit pushed back.
// The `it`s share one workspace and run in order.

const RUN_TIMEOUT_MS = 120_000;
const READY_TIMEOUT_MS = 120_000;
const MESSAGE = 'Acceptance: reword notes.txt and serve the folder';
const SERVER = 'python3 -m http.server 8000';
const PREVIEW_URL = 'http://0.0.0.0:8000/';
const REPO = 'acceptance';

const transcriptOf = (page: Page): Locator => page.getByRole('region', { name: 'Transcript' });
const people = (page: Page): Locator => page.getByRole('group', { name: 'People in this workspace' }).locator('.presence-avatar');
const terminals = (page: Page): Locator => page.getByRole('region', { name: 'Terminals' });

function sandboxFile(workspaceId: string, file: string): string {
  const container = `${process.env.H_E2E_SANDBOX_PREFIX}ws-${workspaceId}`;
  return execFileSync('docker', ['exec', '-u', '1000', '-w', '/workspace', container, 'cat', file], { encoding: 'utf8' });
}

async function csrf(page: Page): Promise<Record<string, string>> {
  const value = (await page.context().cookies()).find((c) => c.name === CSRF_COOKIE)?.value;
  if (!value) throw new Error('no CSRF cookie in this browser');
  return { [CSRF_HEADER]: value };
}

async function waitForEditorText(page: Page, file: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([name, want]) => window.monaco?.editor.getModels().find((m) => m.uri.path === `/workspace/${name}`)?.getValue() === want,
    [file, text] as const,
  );
}

/** Shows the bottom panel's Terminal tab (Ctrl+J first when the panel is hidden). */
async function showTerminals(page: Page): Promise<void> {
  const tabs = page.getByRole('tablist', { name: 'Panel tabs' });
  if ((await tabs.count()) === 0) await page.keyboard.press('Control+J');
  await tabs.getByRole('tab', { name: 'Terminal', exact: true }).click();
  await terminals(page).waitFor();
}

/** Waits until the visible terminal (xterm's DOM rows; nbsp read as spaces) shows `needle`. */
async function waitForTerminalText(page: Page, needle: string): Promise<void> {
  await page.waitForFunction((want) => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('section[aria-label="Terminals"] .xterm-rows')).filter((e) => e.offsetParent !== null);
    return rows.some((e) => e.innerText.replace(/\u00a0/g, ' ').includes(want));
  }, needle, { timeout: 30_000 });
}

/** Types a command line into the active terminal (xterm's focused textarea). */
async function typeInTerminal(page: Page, line: string): Promise<void> {
  await terminals(page).locator('.xterm:visible').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

describe('issue 10 acceptance: the IDE story', () => {
  let owner: LaunchedBrowser;
  let member: LaunchedBrowser;
  let git: GitServer;
  let page: Page;
  let other: Page;
  let workspaceId = '';
  let pageErrors: string[] = [];
  let otherErrors: string[] = [];
  const suffix = uniqueSuffix();
  const workspaceName = `acceptance-${suffix}`;

  beforeAll(async () => {
    git = await startGitServer();
    await git.createRepo(REPO, loadScenario('acceptance-ide').fixture);
    owner = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    member = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await owner?.close();
    await member?.close();
    await git?.close();
  });

  it(
    'should create a workspace from a served git repository and open it in the IDE',
    async () => {
      page = await owner.context.newPage();
      pageErrors = watchPageErrors(page);
      await signUpViaApi(page.request, 'Grace Hopper');
      await page.goto('/teams');
      await page.getByLabel('Team name').fill(`Acceptance ${suffix}`);
      await page.getByRole('button', { name: 'Create team' }).click();
      await page.getByRole('list', { name: 'Teams' }).getByRole('link', { name: `Acceptance ${suffix}` }).click();
      await deepSeekKeySection(page).getByLabel('API key', { exact: true }).fill(`sk-e2e-${suffix}`);
      await deepSeekKeySection(page).getByRole('button', { name: 'Save key' }).click();
      await deepSeekKeySection(page).getByTestId('provider-status').getByText('Configured', { exact: true }).waitFor();

      await page.getByLabel('Workspace name').fill(workspaceName);
      await page.getByLabel('Files', { exact: true }).selectOption('git');
      await page.getByLabel('Repository URL').fill(git.url(REPO));
      await page.getByLabel('Access token (optional)').fill(git.token);
      await page.getByRole('button', { name: 'Create workspace' }).click();
      const row = page.getByTestId('workspace-row').filter({ hasText: workspaceName });
      await row.locator('[data-status="ready"]').waitFor({ timeout: READY_TIMEOUT_MS });
      await row.getByRole('link', { name: workspaceName }).click();
      await page.waitForURL('**/workspaces/*');
      workspaceId = new URL(page.url()).pathname.split('/').pop() as string;
      await page.getByTestId('ide').waitFor();
      // The clone is in the explorer, and the token reached the server only (never the sandbox's remote URL).
      const tree = page.getByRole('tree', { name: 'Files' });
      await tree.getByRole('treeitem', { name: 'README.md' }).waitFor();
      await tree.getByRole('treeitem', { name: 'notes.txt' }).waitFor();
      expect(git.requests.some((r) => r.authorized)).toBe(true);
      expect(sandboxFile(workspaceId, '.git/config')).not.toContain(git.token);
      await screenshot(page, 'acceptance-cloned');
    },
    READY_TIMEOUT_MS + 60_000,
  );

  it(
    'should save an edit made in the editor and show it in a terminal, and run a command there',
    async () => {
      await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'README.md' }).click();
      await page.getByTestId('editor-tab').filter({ hasText: 'README.md' }).waitFor();
      await waitForEditorText(page, 'README.md', '# Acceptance\n\nHello from the remote.\n');
      await page.locator('[data-testid="monaco-host"] .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('Edited in the IDE.');
      await page.getByTestId('dirty-marker').waitFor();
      await page.keyboard.press('Control+S');
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      expect(sandboxFile(workspaceId, 'README.md')).toBe('# Acceptance\n\nHello from the remote.\nEdited in the IDE.');

      await showTerminals(page);
      // The workspace has no terminal yet: showing the panel opens one.
      await terminals(page).getByRole('tab', { name: /Terminal 1/, selected: true }).waitFor();
      await terminals(page).locator('.xterm:visible').waitFor();
      await typeInTerminal(page, 'git --no-pager diff README.md');
      await waitForTerminalText(page, '+Edited in the IDE.');
      await typeInTerminal(page, 'echo "answer=$((6 * 7))"');
      await waitForTerminalText(page, 'answer=42');
      await screenshot(page, 'acceptance-terminal');
    },
    90_000,
  );

  it(
    'should show a second person, share the live run and its approvals, detect the server, and survive a reload mid-run',
    async () => {
      // A member joins by invitation and opens the workspace: both see two people.
      const { teamId } = (await (await page.request.get(`/api/v1/workspaces/${workspaceId}`)).json()) as { teamId: string };
      const invitation = await page.request.post(`/api/v1/teams/${teamId}/members`, { data: { role: 'member' }, headers: await csrf(page) });
      expect(invitation.status()).toBe(201);
      const { token } = (await invitation.json()) as { token: string };
      const signup = await member.context.request.post('/api/v1/auth/signup', {
        data: { name: 'Alan Turing', email: `e2e-accept-${suffix}@example.com`, password: `accept pass ${suffix}`, invitationToken: token },
      });
      expect(signup.status()).toBe(201);
      other = await member.context.newPage();
      otherErrors = watchPageErrors(other);
      await other.goto(`/workspaces/${workspaceId}`);
      await other.getByTestId('ide').waitFor();
      for (const p of [page, other]) await people(p).nth(1).waitFor();
      await other.getByRole('group', { name: 'People in this workspace' }).getByLabel('Grace Hopper').waitFor();
      await page.getByRole('group', { name: 'People in this workspace' }).getByLabel('Alan Turing').waitFor();
      await screenshot(page, 'acceptance-presence');

      // The owner starts a session in approve mode; the member follows the same session.
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('radio', { name: /^Approve/ }).check();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      const sessionId = new URL(page.url()).searchParams.get('session') as string;
      await other.goto(`/workspaces/${workspaceId}?session=${sessionId}`);
      await other.getByText('No messages yet.').waitFor();
      await page.getByLabel('Message to the agent').fill(MESSAGE);
      await page.getByLabel('Message to the agent').press('Enter');
      await transcriptOf(other).getByText(MESSAGE).waitFor({ timeout: RUN_TIMEOUT_MS });

      // The edit is asked in both browsers; the member allows it and the card closes in both.
      const editCard = (p: Page) => p.locator('.permission-card').filter({ hasText: 'edit_file' });
      await editCard(page).waitFor({ timeout: RUN_TIMEOUT_MS });
      const editId = (await editCard(page).getAttribute('data-permission-id')) as string;
      await other.locator(`[data-permission-id="${editId}"]`).waitFor();
      await other.locator(`[data-permission-id="${editId}"]`).getByRole('button', { name: 'Allow', exact: true }).click();
      for (const p of [page, other]) await p.locator(`[data-permission-id="${editId}"]`).waitFor({ state: 'detached' });

      // The diff card of the applied edit, live in both.
      for (const p of [page, other]) await transcriptOf(p).locator('.diff-card').filter({ hasText: 'notes.txt' }).waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(sandboxFile(workspaceId, 'notes.txt')).toBe('greetings from the agent\n');

      // run_in_terminal is asked next. The owner reloads mid-run: no duplicate in the transcript,
      // the pending card is back, and the terminal reattaches with what it showed.
      const serveCard = (p: Page) => p.locator('.permission-card').filter({ hasText: 'run_in_terminal' });
      await serveCard(page).waitFor({ timeout: RUN_TIMEOUT_MS });
      await screenshot(page, 'acceptance-ask-run-in-terminal');
      await page.reload();
      await serveCard(page).waitFor();
      await transcriptOf(page).locator('.diff-card').filter({ hasText: 'notes.txt' }).waitFor();
      expect(await transcriptOf(page).locator('.msg-user').filter({ hasText: MESSAGE }).count()).toBe(1);
      expect(await transcriptOf(page).locator('[data-tool="edit_file"]').count()).toBe(1);
      expect(await transcriptOf(page).locator('.diff-card').count()).toBe(1);
      await showTerminals(page);
      await waitForTerminalText(page, 'answer=42');
      await screenshot(page, 'acceptance-reloaded');

      // The owner approves it in the UI; the card closes in both; the server's URL is detected
      // and shown to both, and its terminal is a tab the team sees.
      const serveId = (await serveCard(page).getAttribute('data-permission-id')) as string;
      await other.locator(`[data-permission-id="${serveId}"]`).waitFor();
      await serveCard(page).getByRole('button', { name: 'Allow', exact: true }).click();
      for (const p of [page, other]) await p.locator(`[data-permission-id="${serveId}"]`).waitFor({ state: 'detached' });
      for (const p of [page, other]) await transcriptOf(p).getByText(`Preview detected: ${PREVIEW_URL}`).waitFor({ timeout: RUN_TIMEOUT_MS });
      await terminals(page).getByRole('tablist', { name: 'Terminal tabs' }).getByRole('tab', { name: new RegExp(SERVER.replace(/\./g, '\\.')) }).waitFor();
      for (const p of [page, other]) await transcriptOf(p).locator('[data-run-end="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });
      // The same run, told the same way in both browsers.
      expect(await transcriptOf(other).innerText()).toBe(await transcriptOf(page).innerText());
      await screenshot(page, 'acceptance-run-owner');
      await screenshot(other, 'acceptance-run-member');
    },
    RUN_TIMEOUT_MS * 3,
  );

  it(
    'should restore the file on Reject and tell the agent on the next message',
    async () => {
      const card = transcriptOf(page).locator('.diff-card').filter({ hasText: 'notes.txt' });
      await card.getByRole('button', { name: 'Reject' }).click();
      await transcriptOf(page).locator('.diff-card[data-change-status="rejected"]').waitFor();
      expect(sandboxFile(workspaceId, 'notes.txt')).toBe('hello from the original\n');
      // The member's card follows.
      await transcriptOf(other).locator('.diff-card[data-change-status="rejected"]').waitFor();

      // The scripted server answers this turn only if the request carries H's note about the
      // rejected change (acceptance-ide.json, last turn); otherwise the run fails.
      await page.getByLabel('Message to the agent').fill('Thanks, keep notes.txt as it was');
      await page.getByLabel('Message to the agent').press('Enter');
      await transcriptOf(page).locator('.msg-assistant').filter({ hasText: 'keeps its original greeting' }).waitFor({ timeout: RUN_TIMEOUT_MS });
      // The reply streams in before the run's end marker; wait for the second run to end, then
      // check how it ended (a failed run would end too, so this fails fast rather than timing out).
      const ends = transcriptOf(page).locator('[data-run-end]');
      await ends.nth(1).waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(await ends.nth(1).getAttribute('data-run-end')).toBe('completed');
      await screenshot(page, 'acceptance-rejected');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it(
    'should end a save conflict in a 409 the editor resolves',
    async () => {
      // Both have README.md open; the member types without saving while the owner saves first.
      await other.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'README.md' }).click();
      await waitForEditorText(other, 'README.md', '# Acceptance\n\nHello from the remote.\nEdited in the IDE.');
      await other.locator('[data-testid="monaco-host"] .view-lines').click();
      await other.keyboard.press('Control+Home');
      await other.keyboard.type('<!-- reviewed by Alan -->\n');
      await other.getByTestId('dirty-marker').waitFor();

      await page.getByTestId('editor-tab').filter({ hasText: 'README.md' }).click();
      await page.locator('[data-testid="monaco-host"] .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' Twice.');
      await page.getByTestId('dirty-marker').waitFor();
      const ownerSave = page.waitForResponse((r) => r.url().includes(`/workspaces/${workspaceId}/files/content`) && r.request().method() === 'PUT');
      await page.keyboard.press('Control+S');
      const ownerAnswer = await ownerSave;
      expect(`${ownerAnswer.status()} ${ownerAnswer.status() === 200 ? '' : await ownerAnswer.text()}`.trim()).toBe('200');
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });

      // The member's save is refused with 409 and the compare offers both; "Keep mine" writes the
      // member's text over the owner's (knowingly, after seeing both).
      const refused = other.waitForResponse((r) => r.url().includes(`/workspaces/${workspaceId}/files/content`) && r.request().method() === 'PUT');
      await other.keyboard.press('Control+S');
      const answer = await refused;
      expect(answer.status()).toBe(409);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('EDIT_CONFLICT');
      const conflict = other.getByTestId('conflict-view');
      await conflict.locator('.monaco-diff-editor').waitFor();
      await screenshot(other, 'acceptance-conflict');
      await conflict.getByRole('button', { name: 'Keep mine' }).click();
      await conflict.waitFor({ state: 'detached' });
      await other.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      const mine = '<!-- reviewed by Alan -->\n# Acceptance\n\nHello from the remote.\nEdited in the IDE.';
      expect(sandboxFile(workspaceId, 'README.md')).toBe(mine);
      // The owner's clean tab follows the saved version.
      await waitForEditorText(page, 'README.md', mine);
    },
    90_000,
  );

  it(
    'should commit in Source Control and push back to the served repository',
    async () => {
      await page.getByRole('button', { name: 'Source Control', exact: true }).click();
      const view = page.getByRole('complementary', { name: 'Source Control' });
      const changes = view.getByRole('region', { name: /^Changes/ });
      await changes.locator('[data-path="README.md"]').waitFor();
      await changes.getByRole('button', { name: 'Stage README.md' }).click();
      await view.getByRole('region', { name: /^Staged changes/ }).locator('[data-path="README.md"]').waitFor();
      await view.getByLabel('Commit message').fill('Edit the README in H');
      await view.getByLabel('Commit message').press('Control+Enter');
      await view.getByRole('region', { name: 'Commits' }).getByText('Edit the README in H').waitFor();
      await screenshot(page, 'acceptance-committed');

      // Push from the panel: the server pushes with the stored token (it never enters the sandbox).
      await view.getByRole('group', { name: 'Remote' }).getByRole('button', { name: 'Push', exact: true }).click();
      await view.getByRole('status').getByText(/^Pushed main to origin/).waitFor();
      await screenshot(page, 'acceptance-pushed');
      expect((await git.git(REPO, ['log', '--format=%s|%an', 'main'])).split('\n').slice(0, 2)).toEqual(['Edit the README in H|Grace Hopper', 'initial commit|Remote Dev']);
      expect(await git.git(REPO, ['show', 'main:README.md'])).toBe(sandboxFile(workspaceId, 'README.md'));

      expect(pageErrors).toEqual([]);
      expect(otherErrors).toEqual([]);
    },
    90_000,
  );
});
