import type { Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { baseUrl, screenshot, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import { loadScenario, seedWorkspaceFiles, signUpToReadyWorkspace } from './console-helpers';

// Sub-agents in the console (issue 12, seed "Color coding"): the scripted delegate-parallel.json
// has the main agent start a code-search and a researcher sub-agent at once. Their tool calls show
// in the parent's turn with their profile's colour, a card lists both with status and report, and
// their text is not shown as messages.
const RUN_TIMEOUT_MS = 150_000;
const MESSAGE = 'Ask two sub-agents about this project.';

const transcriptOf = (page: Page) => page.getByRole('region', { name: 'Transcript' });

describe('sub-agents in the console', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(() => browser?.close());

  it('should show each sub-agent\'s tool cards in its colour and a delegation card, without their text as messages', async () => {
    const page = await browser.context.newPage();
    const errors = watchPageErrors(page);
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
    seedWorkspaceFiles(workspaceId, loadScenario('fix-failing-test').fixture ?? {});

    await page.getByLabel('Message to the agent').fill(MESSAGE);
    await page.getByLabel('Message to the agent').press('Enter');
    const transcript = transcriptOf(page);
    await transcript.locator('[data-run-end="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });

    await transcript.locator('[data-tool="grep"][data-agent="code-search"][data-agent-colour="green"][data-status="ok"]').waitFor();
    await transcript.locator('[data-tool="list_files"][data-agent="researcher"][data-agent-colour="purple"][data-status="ok"]').waitFor();
    await transcript.locator('[data-tool="delegate_parallel"][data-agent="main"][data-agent-colour="blue"][data-status="ok"]').waitFor();
    const card = transcript.getByRole('region', { name: 'Sub-agents' });
    await card.locator('[data-agent="code-search"][data-status="completed"]').getByText('Code Search Agent').waitFor();
    await card.locator('[data-agent="researcher"][data-status="completed"]').getByText('Researcher Agent').waitFor();
    // Their reports are on the card (and in the delegate result), never as transcript messages.
    expect(await transcript.locator('.msg').filter({ hasText: 'SUB-AGENT TEXT' }).count()).toBe(0);
    expect(await transcript.locator('.msg-user').count()).toBe(1);
    // The border is the profile's colour (the stylesheet's, not only an attribute).
    const colour = (agent: string) => transcript.locator(`.tool-row[data-agent="${agent}"]`).first().evaluate((el) => getComputedStyle(el).borderLeftColor);
    expect(await colour('code-search')).toBe('rgb(22, 163, 74)');
    expect(await colour('researcher')).toBe('rgb(147, 51, 234)');
    await screenshot(page, 'console-sub-agents');
    expect(errors).toEqual([]);
  }, 240_000);
});
