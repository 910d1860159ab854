import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { seedWorkspaceFiles, signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, uniqueSuffix } from '../web/web-helpers';

// Issue 14 point 5, IDE side: the status bar shows the workspace's knowledge graph (built in its
// sandbox) as files and symbols, and follows a file added in the sandbox.
const GRAPH_TIMEOUT_MS = 60_000;

describe('Knowledge graph in the status bar', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should show the files and symbols the sandbox graphed, and the counts after a file is added', async () => {
    const page = await browser.context.newPage();
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix(), { providerKey: false });
    seedWorkspaceFiles(workspaceId, { 'src/a.ts': 'export const a = 1;\nexport function b() {}\n', 'lib/c.py': 'def c():\n    pass\n' });
    await page.reload();
    await page.getByTestId('ide').waitFor();
    const item = page.getByTestId('status-graph');
    await item.getByText('Graph: 2 files, 3 symbols', { exact: true }).waitFor({ timeout: GRAPH_TIMEOUT_MS });
    seedWorkspaceFiles(workspaceId, { 'src/d.ts': "import { a } from './a';\nexport type D = typeof a;\n" });
    await item.getByText('Graph: 3 files, 4 symbols', { exact: true }).waitFor({ timeout: GRAPH_TIMEOUT_MS });
    expect(await item.getAttribute('data-state')).toBe('ready');
  }, 180_000);
});
