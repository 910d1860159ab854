import type { Locator, Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, screenshot, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import { loadScenario, readWorkspaceFile, seedWorkspaceFiles, signUpToReadyWorkspace } from './console-helpers';

// The agent's edits are reviewable (issue 10 point 7): the scripted model edits a file, the
// console shows the diff card live, Reject restores the file in the sandbox, and the agent's next
// request carries the note (the scenario's third turn expects it, else the run fails).
const RUN_TIMEOUT_MS = 120_000;

function transcriptOf(page: Page): Locator {
  return page.getByRole('region', { name: 'Transcript' });
}

describe('agent edits in the console', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'should show the diff card of an edit, restore the file on Reject and tell the agent',
    async () => {
      const page = await browser.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
      seedWorkspaceFiles(workspaceId, loadScenario('review-agent-edit').fixture);

      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('radio', { name: /^Bypass/ }).check();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      await page.getByText('No messages yet.').waitFor();
      await page.getByLabel('Message to the agent').fill('Reword the greeting in notes.txt');
      await page.getByLabel('Message to the agent').press('Enter');

      const card = transcriptOf(page).locator('.diff-card').filter({ hasText: 'notes.txt' });
      await card.waitFor({ timeout: RUN_TIMEOUT_MS });
      await card.getByRole('button', { name: /^Edited notes\.txt/ }).click();
      await card.locator('.diff-add').filter({ hasText: 'greetings from the agent' }).waitFor();
      await card.locator('.diff-del').filter({ hasText: 'hello from the original' }).waitFor();
      expect(await card.locator('.diff-counts').innerText()).toMatch(/\+1\s+−1/);
      await transcriptOf(page).locator('[data-run-end="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(readWorkspaceFile(workspaceId, 'notes.txt')).toBe('greetings from the agent\n');
      // The run's revert is offered beside its changes.
      await transcriptOf(page).getByRole('button', { name: /^Revert this run \(1 change\)/ }).waitFor();
      await screenshot(page, 'console-diff-card');

      await card.getByRole('button', { name: 'Reject' }).click();
      await transcriptOf(page).locator('.diff-card[data-change-status="rejected"]').waitFor();
      await card.getByText('Rejected: restored').waitFor();
      expect(readWorkspaceFile(workspaceId, 'notes.txt')).toBe('hello from the original\n');
      expect(await card.getByRole('button', { name: 'Reject' }).count()).toBe(0);
      expect(await transcriptOf(page).getByRole('button', { name: /^Revert this run/ }).count()).toBe(0);
      await screenshot(page, 'console-diff-card-rejected');

      // The next request carries the note: the scripted model answers only if it is there.
      await page.getByLabel('Message to the agent').fill('Thanks, keep it as it was');
      await page.getByLabel('Message to the agent').press('Enter');
      await transcriptOf(page).locator('.msg-assistant').filter({ hasText: 'keeps its original greeting' }).waitFor({ timeout: RUN_TIMEOUT_MS });
      // The reply streams in before the run's end marker: wait for the second run to end, then
      // check how it ended (a failed run ends too, so this fails fast rather than timing out).
      const ends = transcriptOf(page).locator('[data-run-end]');
      await ends.nth(1).waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(await ends.nth(1).getAttribute('data-run-end')).toBe('completed');

      // A reload shows the same cards, in their decided state.
      await page.reload();
      await transcriptOf(page).locator('.diff-card[data-change-status="rejected"]').waitFor();
      expect(pageErrors).toEqual([]);
    },
    RUN_TIMEOUT_MS * 2,
  );

  it(
    'should show the proposed diff when asking, run the input as edited, and fork from the message with the files as they were',
    async () => {
      await browser.context.clearCookies();
      const page = await browser.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
      seedWorkspaceFiles(workspaceId, loadScenario('approve-edited-edit').fixture);

      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('radio', { name: /^Approve/ }).check();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      const sessionId = new URL(page.url()).searchParams.get('session') as string;
      await page.getByLabel('Message to the agent').fill('Update the motto in motto.txt');
      await page.getByLabel('Message to the agent').press('Enter');

      // The card shows the exact diff the worker computed against the file as it is.
      const card = page.locator('.permission-card');
      await card.getByLabel('Proposed change to motto.txt').waitFor({ timeout: RUN_TIMEOUT_MS });
      await card.locator('.diff-del').filter({ hasText: 'ship it' }).waitFor();
      await card.locator('.diff-add').filter({ hasText: 'ship it now' }).waitFor();
      await card.getByRole('button', { name: 'Edit before allowing' }).click();
      await card.getByLabel('Input to run instead (JSON)').fill(JSON.stringify({ path: 'motto.txt', old_string: 'ship it', new_string: 'ship it carefully' }));
      await screenshot(page, 'console-permission-edit');
      await card.getByRole('button', { name: 'Allow edited' }).click();
      await transcriptOf(page).locator('[data-run-end="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(readWorkspaceFile(workspaceId, 'motto.txt')).toBe('ship it carefully\n');
      await transcriptOf(page).locator('[data-tool="edit_file"]').getByText('edited', { exact: true }).waitFor();
      const changeCard = transcriptOf(page).locator('.diff-card').filter({ hasText: 'motto.txt' });
      await changeCard.getByRole('button', { name: /^Edited motto\.txt/ }).click();
      await changeCard.locator('.diff-add').filter({ hasText: 'ship it carefully' }).waitFor();

      // Fork from the first message: a new session without it, the message back in the composer,
      // and the file as it was before the run.
      const message = transcriptOf(page).locator('.msg-user').filter({ hasText: 'Update the motto in motto.txt' });
      await message.getByRole('button', { name: 'Fork from here' }).click();
      await message.getByRole('button', { name: 'Fork and restore files' }).click();
      await page.waitForURL((url) => !!url.searchParams.get('session') && url.searchParams.get('session') !== sessionId);
      await page.getByText('No messages yet.').waitFor();
      expect(await page.getByLabel('Message to the agent').inputValue()).toBe('Update the motto in motto.txt');
      expect(readWorkspaceFile(workspaceId, 'motto.txt')).toBe('ship it\n');
      await screenshot(page, 'console-forked');
      expect(pageErrors).toEqual([]);
    },
    RUN_TIMEOUT_MS * 2,
  );
});
