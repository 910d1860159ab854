import type { Locator, Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, screenshot, screenshotOf, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import { readWorkspaceFile, signUpToReadyWorkspace } from './console-helpers';

// Step-by-step mode in the console (scenario step-by-step.json): the new-session form's option,
// then the locked plan beside the transcript with each step's status going pending → in progress →
// completed live, the wrap-up summary, and the same plan after a reload (folded from the log).
const RUN_TIMEOUT_MS = 150_000;
const MESSAGE = 'STEP-BY-STEP DEMO: write the two notes, one step each.';

function plan(page: Page): Locator {
  return page.getByRole('region', { name: /Locked plan/ });
}

async function stepStatuses(page: Page): Promise<string[]> {
  return plan(page).locator('[data-step-status]').evaluateAll((items) => items.map((i) => i.getAttribute('data-step-status') ?? ''));
}

describe('step-by-step mode in the console', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'should show the locked plan with per-step status live and after a reload, and the wrap-up',
    async () => {
      const page = await browser.context.newPage();
      const pageErrors = watchPageErrors(page);
      const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());

      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByLabel(/^Step by step/).check();
      await page.getByRole('radio', { name: /^Bypass/ }).check();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
      await page.getByText('No messages yet.').waitFor();
      // The composer starts with the session's choice.
      expect(await page.getByRole('checkbox', { name: 'Step by step' }).isChecked()).toBe(true);

      await page.getByLabel('Message to the agent').fill(MESSAGE);
      await page.getByLabel('Message to the agent').press('Enter');
      await plan(page).waitFor({ timeout: RUN_TIMEOUT_MS });
      await plan(page).getByText('STEP-BY-STEP DEMO first: write notes/one.txt with the word one').waitFor();
      await page.locator('.run-status[data-run-status="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });
      await plan(page).locator('[data-step-status="completed"]').nth(1).waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(await stepStatuses(page)).toEqual(['completed', 'completed']);
      await plan(page).getByText('(2/2 steps done)').waitFor();
      // The wrap-up: every step's result, as the run's summary.
      await page.getByRole('region', { name: 'Transcript' }).getByText(/Step results \(2 steps: 2 completed\)/).waitFor();
      await screenshot(page, 'console-step-mode-done');

      // A reload folds the same plan and statuses from the log alone.
      await page.reload();
      await plan(page).waitFor();
      expect(await stepStatuses(page)).toEqual(['completed', 'completed']);
      await plan(page).getByText('Result').first().click();
      await plan(page).getByText('Wrote notes/one.txt with the word one.').waitFor();
      await screenshotOf(plan(page), 'console-step-plan');

      expect(readWorkspaceFile(workspaceId, 'notes/one.txt')).toBe('one\n');
      expect(readWorkspaceFile(workspaceId, 'notes/two.txt')).toBe('two\n');
      expect(pageErrors).toEqual([]);
    },
    RUN_TIMEOUT_MS * 2,
  );
});
