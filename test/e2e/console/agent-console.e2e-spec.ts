import { type Locator, type Page, request } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { waitFor } from '../../support/wait-for';
import { baseUrl, deepSeekKeySection, logIn, screenshot, signUpViaApi, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import { loadScenario, readWorkspaceFile, seedWorkspaceFiles, signUpToReadyWorkspace } from './console-helpers';

// The agent console in headless Chromium against the real api, worker, sandbox and web; the model
// is the project's scripted server replaying fix-failing-test.json (read the code and the test,
// run it, edit the bug, run it again, summarise). A second browser signed in as the same user
// watches the same session live.
const RUN_TIMEOUT_MS = 150_000;
const MESSAGE = 'The failing test in test/math.test.js needs fixing.';

function transcriptOf(page: Page): Locator {
  return page.getByRole('region', { name: 'Transcript' });
}

function runEnd(page: Page): Locator {
  return transcriptOf(page).locator('[data-run-end]');
}

describe('agent console', () => {
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
    'should run the agent with approvals, stream it to a second browser, and rebuild the same transcript after reload',
    async () => {
      const page = await owner.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());

      // A new session in approve mode, with thinking shown.
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByLabel('Model', { exact: true }).selectOption('deepseek-v4-flash');
      await page.getByLabel(/^Thinking/).check();
      await page.getByRole('radio', { name: /^Approve/ }).check();
      await screenshot(page, 'console-new-session');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      const sessionUrl = page.url();
      const sessionId = new URL(sessionUrl).searchParams.get('session') as string;
      await page.getByText('No messages yet.').waitFor();

      // The workspace holds the scenario's project before the message is sent.
      seedWorkspaceFiles(workspaceId, loadScenario('fix-failing-test').fixture);

      // The same user in another browser follows the session from before the first message.
      await watcher.context.addCookies(await owner.context.cookies());
      const other = await watcher.context.newPage();
      const otherErrors = watchPageErrors(other);
      // Token deltas are live only (never in the log): count the ones that reach this browser.
      const deltaFrames: string[] = [];
      other.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => String(payload).startsWith('42["delta"') && deltaFrames.push(String(payload))));
      await other.goto(new URL(sessionUrl).pathname + `?session=${sessionId}`);
      await other.getByText('No messages yet.').waitFor();

      // The watcher loses its connection before the message is sent...
      await watcher.context.setOffline(true);
      const banner = other.getByText('Connection lost, reconnecting…');
      await banner.waitFor({ timeout: 60_000 });

      await page.getByLabel('Message to the agent').fill(MESSAGE);
      await page.getByLabel('Message to the agent').press('Enter');
      await transcriptOf(page).getByText(MESSAGE).waitFor();
      await page.locator('.run-status[data-run-status="running"], .run-status[data-run-status="waiting_permission"]').first().waitFor({ timeout: RUN_TIMEOUT_MS });
      await screenshot(page, 'console-running');

      // ...and, back online, catches up on what it missed: the message, the reads, the first request.
      await page.getByRole('button', { name: 'Allow', exact: true }).first().waitFor({ timeout: RUN_TIMEOUT_MS });
      await screenshot(other, 'console-reconnecting');
      expect(await transcriptOf(other).getByText(MESSAGE).count()).toBe(0);
      await watcher.context.setOffline(false);
      await banner.waitFor({ state: 'detached', timeout: 60_000 });
      await transcriptOf(other).getByText(MESSAGE).waitFor();
      await transcriptOf(other).locator('[data-tool="read_file"][data-status="ok"]').nth(1).waitFor();

      // Approve each request as it appears; the other browser shows the same card and sees it go.
      const approved: string[] = [];
      const allow = page.getByRole('button', { name: 'Allow', exact: true });
      for (;;) {
        await runEnd(page).or(allow).first().waitFor({ timeout: RUN_TIMEOUT_MS });
        if (await runEnd(page).count()) break;
        const card = page.locator('.permission-card').first();
        const permissionId = (await card.getAttribute('data-permission-id')) as string;
        approved.push((await card.locator('.permission-title .mono').innerText()).trim());
        await other.locator(`[data-permission-id="${permissionId}"]`).waitFor();
        await page.locator('.run-status[data-run-status="waiting_permission"]').waitFor();
        if (approved.length === 2) await screenshot(page, 'console-waiting-for-approval');
        await allow.first().click();
        await page.locator(`[data-permission-id="${permissionId}"]`).waitFor({ state: 'detached' });
        await other.locator(`[data-permission-id="${permissionId}"]`).waitFor({ state: 'detached' });
      }
      expect(await runEnd(page).getAttribute('data-run-end')).toBe('completed');
      expect(approved).toEqual(expect.arrayContaining(['run_command', 'edit_file']));
      expect(approved.filter((t) => t === 'read_file')).toEqual([]);

      // What the agent did, as rows: reads, the failing and the passing test run, the edit.
      const transcript = transcriptOf(page);
      expect(await transcript.locator('[data-tool="read_file"]').count()).toBe(2);
      expect(await transcript.locator('[data-tool="run_command"]').count()).toBe(2);
      await transcript.locator('[data-tool="read_file"][data-status="ok"]').filter({ hasText: 'src/math.js' }).waitFor();
      await transcript.locator('[data-tool="edit_file"][data-status="ok"]').filter({ hasText: 'src/math.js' }).waitFor();
      await transcript.locator('[data-tool="run_command"]').last().filter({ hasText: 'npm test' }).waitFor();
      expect(await transcript.locator('[data-tool="run_command"]').last().getAttribute('data-status')).toBe('ok');
      const summary = transcript.getByRole('region', { name: 'Summary' });
      await summary.getByRole('heading', { name: 'Changes Made' }).waitFor();
      await summary.locator('code').filter({ hasText: 'src/math.js' }).first().waitFor();
      await page.locator('.run-status[data-run-status="completed"]').getByText('Done').waitFor();
      await page.getByLabel('Session usage').getByTitle(/prompt \+ \d+ completion tokens/).waitFor();
      await page.getByRole('link', { name: /The failing test in test\/math\.test\.js/ }).locator('[data-run-status="completed"]').waitFor();
      expect(readWorkspaceFile(workspaceId, 'src/math.js')).toContain('return a + b;');
      // The transcript followed the run to its end without anyone scrolling it.
      expect(await transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(48);
      expect(await transcript.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      await screenshot(page, 'console-done');

      // The failing test run's output opens below its row.
      const firstRun = transcript.locator('[data-tool="run_command"]').first();
      await firstRun.locator('.tool-exit').filter({ hasText: 'exit 1' }).waitFor();
      await firstRun.locator('summary').click();
      await firstRun.locator('pre').filter({ hasText: 'expected 5, got -1' }).waitFor();
      await screenshot(page, 'console-tool-output');
      await firstRun.locator('summary').click();

      // The second browser saw the same events live: it ends with the same transcript.
      await runEnd(other).waitFor({ timeout: RUN_TIMEOUT_MS });
      await transcriptOf(other).getByRole('region', { name: 'Summary' }).waitFor();
      expect(deltaFrames.some((f) => f.includes('thinking.delta'))).toBe(true);
      const live = await transcript.innerText();
      expect(await transcriptOf(other).innerText()).toBe(live);

      // A reload rebuilds the transcript from the log alone, identically.
      await page.reload();
      await runEnd(page).waitFor();
      expect(await transcriptOf(page).innerText()).toBe(live);
      expect(await page.locator('.permission-card').count()).toBe(0);

      expect(pageErrors).toEqual([]);
      expect(otherErrors).toEqual([]);
    },
    RUN_TIMEOUT_MS + 120_000,
  );
  it(
    'should make one run of a double submit, show a viewer the approval card without controls, cancel a waiting run, and answer in a new session',
    async () => {
      await owner.context.clearCookies();
      await watcher.context.clearCookies();
      const signups = await request.newContext({ baseURL: baseUrl() });
      const viewer = await signUpViaApi(signups, 'Vic Viewer');
      await signups.dispose();

      const page = await owner.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId, inviteLink } = await signUpToReadyWorkspace(page, uniqueSuffix(), { inviteViewer: true });
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      const sessionId = new URL(page.url()).searchParams.get('session') as string;
      seedWorkspaceFiles(workspaceId, loadScenario('fix-failing-test').fixture);

      // Two submits before the page re-renders (a double click, a retried request) carry one
      // clientMessageId, so the api starts one run.
      await page.getByLabel('Message to the agent').fill(MESSAGE);
      await page.locator('form.composer').evaluate((form: HTMLFormElement) => {
        form.requestSubmit();
        form.requestSubmit();
      });
      await page.getByRole('button', { name: 'Allow', exact: true }).waitFor({ timeout: RUN_TIMEOUT_MS });
      const runs = (await (await page.request.get(`/api/v1/sessions/${sessionId}/runs`)).json()) as { items: { id: string }[] };
      expect(runs.items).toHaveLength(1);
      expect(await transcriptOf(page).getByText(MESSAGE).count()).toBe(1);

      // A viewer follows the session: the request is shown, but nothing can be decided or sent.
      const other = await watcher.context.newPage();
      const otherErrors = watchPageErrors(other);
      await other.goto('/login');
      await logIn(other, viewer.email, viewer.password);
      await other.waitForURL('**/teams');
      await other.goto(inviteLink as string);
      await other.getByRole('button', { name: /^Join / }).click();
      await other.waitForURL(/\/teams\/[0-9a-f-]{36}$/);
      await other.goto(`/workspaces/${workspaceId}?session=${sessionId}`);
      const card = other.locator('.permission-card');
      await card.getByText('npm test').waitFor();
      expect(await card.getByRole('button', { name: 'Allow' }).isDisabled()).toBe(true);
      expect(await card.getByRole('button', { name: 'Deny' }).isDisabled()).toBe(true);
      await other.getByText('Viewers can follow this session but not send messages.').waitFor();
      expect(await other.getByLabel('Message to the agent').count()).toBe(0);
      expect(await other.getByRole('button', { name: 'New session' }).count()).toBe(0);
      await screenshot(other, 'console-viewer');

      // Cancelling the waiting run ends it for everyone and takes the request away.
      await page.getByRole('button', { name: 'Cancel run' }).click();
      for (const p of [page, other]) {
        await p.locator('.run-status[data-run-status="cancelled"]').getByText('Cancelled').waitFor();
        await transcriptOf(p).locator('[data-run-end="cancelled"]').waitFor();
        await p.locator('.permission-card').waitFor({ state: 'detached' });
      }
      expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);

      // A second session answers in plain text, streamed and then persisted; the list shows it first.
      const textDeltas: string[] = [];
      page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => String(payload).includes('"text.delta"') && textDeltas.push(String(payload))));
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('radio', { name: /^Bypass/ }).check();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL((url) => !!url.searchParams.get('session') && url.searchParams.get('session') !== sessionId);
      await page.getByText('No messages yet.').waitFor();
      await page.getByLabel('Message to the agent').fill('What does this project do?');
      await page.getByLabel('Message to the agent').press('Enter');
      const answer = transcriptOf(page).locator('.msg-assistant').filter({ hasText: '[scripted answer]' });
      await answer.locator('code').filter({ hasText: 'multiply' }).waitFor({ timeout: RUN_TIMEOUT_MS });
      await transcriptOf(page).locator('[data-run-end="completed"]').waitFor();
      expect(await answer.count()).toBe(1);
      expect(textDeltas.length).toBeGreaterThan(0);
      await page.locator('.session-link').first().getByText('What does this project do?').waitFor();
      expect(await page.locator('.session-title').allInnerTexts()).toEqual(['What does this project do?', MESSAGE]);
      await screenshot(page, 'console-answer');
      expect(pageErrors).toEqual([]);
      expect(otherErrors).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it('should show why a run failed', async () => {
    await owner.context.clearCookies();
    const page = await owner.context.newPage();
    const pageErrors = watchPageErrors(page);
    await signUpToReadyWorkspace(page, uniqueSuffix(), { providerKey: false });
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForURL(/\?session=/);
    await page.getByLabel('Message to the agent').fill('Hello there');
    await page.getByLabel('Message to the agent').press('Enter');

    // The team has no DeepSeek key: the status line and the transcript say so.
    const status = page.locator('.run-status[data-run-status="failed"]');
    await status.waitFor({ timeout: RUN_TIMEOUT_MS });
    expect(await status.innerText()).toMatch(/^Failed: No DeepSeek API key is set for this team/);
    // On one line within the console (the whole message is in the transcript, and on hover here).
    const fits = (el: Element) => {
      const box = el.getBoundingClientRect();
      return [el.closest('.console'), el.closest('.console')?.parentElement].every((c) => c && box.right <= c.getBoundingClientRect().right + 0.5);
    };
    expect(await status.evaluate(fits)).toBe(true);
    const lines = (el: Element) => {
      const tops = new Set<number>();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of Array.from(range.getClientRects())) tops.add(Math.round(r.top));
      }
      return tops.size;
    };
    expect(await status.evaluate(lines)).toBe(1);
    expect(await status.locator('[title]').getAttribute('title')).toMatch(/^Failed: No DeepSeek API key .*the team page\)\.$/);
    await transcriptOf(page).locator('[data-run-end="failed"]').getByText(/No DeepSeek API key/).waitFor();
    await screenshot(page, 'console-failed');

    // The failure links to the section where the key is set, and the owner sets it there: the page
    // scrolls to it once its sections have loaded, below the sticky top bar.
    await transcriptOf(page).locator('[data-run-end="failed"]').getByRole('link', { name: 'Open Settings' }).click();
    await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}\/settings#provider-heading-deepseek$/);
    await deepSeekKeySection(page).getByLabel('API key', { exact: true }).waitFor();
    const heading = deepSeekKeySection(page).getByRole('heading', { name: 'DeepSeek API key' });
    const inView = async () => {
      const y = (await heading.boundingBox())?.y ?? Infinity;
      return y >= 0 && y < 200;
    };
    await waitFor('the DeepSeek key section scrolled into view', inView);
    // The contents list at the top leads there too. Scrolled back up as a person does (the wheel),
    // which also ends the page's settling on the target: a scroll by script would not, and a
    // section loading afterwards would bring the target back.
    await page.mouse.move(400, 400);
    await waitFor('the page back at its top', async () => {
      await page.mouse.wheel(0, -5000);
      return !(await inView());
    });
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'DeepSeek API key' }).click();
    await waitFor('the DeepSeek key section scrolled into view from the contents', inView);
    await deepSeekKeySection(page).getByLabel('API key', { exact: true }).fill(`sk-e2e-${uniqueSuffix()}`);
    await deepSeekKeySection(page).getByRole('button', { name: 'Save key' }).click();
    await deepSeekKeySection(page).getByTestId('provider-status').getByText('Configured', { exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
