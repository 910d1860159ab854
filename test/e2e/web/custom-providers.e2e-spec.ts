import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, screenshot, SecretLedger, uniqueSuffix, watchPageErrors } from './web-helpers';

const RUN_TIMEOUT_MS = 150_000;

function modelUrl(): string {
  const url = process.env.H_E2E_MODEL_URL;
  if (!url) throw new Error('H_E2E_MODEL_URL is not set: the e2e global setup starts the scripted model and exports it');
  return url;
}

// Issue 11, point 5, in headless Chromium: a team admin adds the team's own OpenAI-compatible
// provider on the settings page (here the scripted model server on loopback, which the e2e
// instance allows in PROVIDER_ALLOWED_INTERNAL_HOSTS), fills its models from the provider's
// GET /models, makes a preset of it, and starts a session on it from the IDE; the run is answered
// by that provider although the team has no DeepSeek key.
describe('web custom providers', () => {
  let browser: LaunchedBrowser;
  const secrets = new SecretLedger();

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should add a provider with a write-only key, fetch its models, preset it and run a session on it', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix(), { providerKey: false });
    await secrets.rememberCookies(browser.context, 'owner');

    await page.goto(`/workspaces/${workspaceId}/settings`);
    const section = page.getByRole('region', { name: 'OpenAI-compatible providers' });
    await section.getByText("No providers of the team's own yet.").waitFor();

    // A bad base URL is refused with the API's reason; the key field is cleared once sent.
    const key = `sk-e2e-local-${uniqueSuffix()}`;
    secrets.remember('custom provider key', key);
    await section.getByLabel('Provider name').fill('Lab model');
    await section.getByLabel('Base URL').fill('http://10.1.2.3:8000/v1');
    await section.getByLabel('API key (optional)').fill(key);
    await section.getByRole('button', { name: 'Add provider' }).click();
    await section.getByText(/Plain http is refused for 10\.1\.2\.3/).waitFor();
    expect(await section.getByLabel('API key (optional)').inputValue()).toBe('');

    await section.getByLabel('Base URL').fill(modelUrl());
    await section.getByLabel('API key (optional)').fill(key);
    await section.getByRole('button', { name: 'Add provider' }).click();
    const card = section.getByTestId('custom-provider').filter({ hasText: 'Lab model' });
    await card.getByText('Key set').waitFor();
    await card.getByText(modelUrl()).waitFor();

    // Its models, from the provider itself; the demo model gets a window and a price, then saved.
    await card.getByRole('button', { name: 'Fetch models' }).click();
    await card.getByRole('status').filter({ hasText: /model\(s\) added from the provider/ }).waitFor();
    const rows = card.getByTestId('provider-model-row');
    const demo = rows.filter({ has: page.locator('input[value="scripted-demo"]') });
    await demo.waitFor();
    for (let n = await rows.count(); n > 1; n--) {
      const other = rows.filter({ hasNot: page.locator('input[value="scripted-demo"]') }).first();
      await other.getByRole('button', { name: /^Remove/ }).click();
    }
    await demo.getByLabel('Context window of model scripted-demo').fill('65536');
    await demo.getByLabel('Input price of model scripted-demo').fill('1.5');
    await demo.getByLabel('Output price of model scripted-demo').fill('6');
    await card.getByRole('button', { name: 'Save models' }).click();
    await card.getByRole('status').filter({ hasText: 'Models saved.' }).waitFor();
    await screenshot(page, 'settings-custom-provider');

    await page.reload();
    await card.getByTestId('provider-model-row').first().waitFor();
    expect(await card.getByLabel('Context window of model scripted-demo').inputValue()).toBe('65536');
    expect(await page.content()).not.toContain(key);

    // A preset on the provider's model.
    await page.getByLabel('Preset name').fill('Local demo');
    await page.getByLabel('Preset provider').selectOption({ label: 'Lab model' });
    expect(await page.getByLabel('Preset model').inputValue()).toBe('scripted-demo');
    await page.getByRole('button', { name: 'Add preset' }).click();
    const preset = page.getByTestId('preset-row').filter({ hasText: 'Local demo' });
    await preset.waitFor();
    expect(await preset.innerText()).toContain('Lab model');

    // The IDE: the preset fills provider and model; the run is answered by the provider.
    await page.goto(`/workspaces/${workspaceId}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByLabel('Preset').selectOption({ label: 'Local demo (scripted-demo, thinking off)' });
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).not.toBe('deepseek');
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('scripted-demo');
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForURL(/\?session=[0-9a-f-]{36}$/);
    await page.getByLabel('Message to the agent').fill('Hello from the lab');
    await page.getByLabel('Message to the agent').press('Enter');
    await page.locator('.run-status[data-run-status="completed"]').waitFor({ timeout: RUN_TIMEOUT_MS });
    await page.getByRole('region', { name: 'Transcript' }).getByText(/\[scripted demo model\]/).first().waitFor();
    await screenshot(page, 'console-custom-provider');

    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
