import { parseScenario } from '@h/scripted-model';
import { allEvents, waitForRunStatus } from '../../support/run-fixtures';
import { CrashWorld, finishTurn, logProblems, startCrashWorld, workspaceFiles } from '../crash/crash-kit';
import { FIXTURE_APP_SOURCE, FIXTURE_URL } from './fixture-login-app';

// Acceptance of issue 13.3: the main agent starts a fixture login app in the sandbox and delegates
// to the browser sub-agent, which logs in by looking at screenshots and pointing at coordinates;
// the parent's result says logged in, and the app itself recorded the login.
const BROWSER_AGENT = "You are H's Browser Agent";
const TASK = 'Browser case: log into the app at ' + FIXTURE_URL + ' as alice / s3cret and tell me what the page says';
const CHECK_TASK = 'Browser case check: take a screenshot of the open page and say what it shows';

const scenario = parseScenario({
  name: 'browser-login',
  match: { firstUserMessageContains: 'Browser case' },
  turns: [
    {
      expect: { lastMessageRole: 'user', toolsInclude: ['delegate_task', 'run_in_terminal'] },
      toolCalls: [{ name: 'write_file', arguments: { path: 'fixture.js', content: FIXTURE_APP_SOURCE } }],
    },
    {
      expect: { lastMessageRole: 'tool' },
      toolCalls: [{ name: 'run_in_terminal', arguments: { command: 'node fixture.js' } }],
    },
    {
      expect: { lastMessageRole: 'tool', lastMessageContains: 'fixture listening' },
      toolCalls: [{ name: 'delegate_task', arguments: { task: TASK, agent_type: 'browser' } }],
    },
    {
      expect: { lastMessageRole: 'tool', lastMessageContains: ['[Browser Agent] Completed.', 'Logged in: the page says "Welcome, alice"'] },
      toolCalls: [{ name: 'delegate_task', arguments: { task: CHECK_TASK, agent_type: 'frontend-specialist' } }],
    },
    finishTurn(1, { lastMessageRole: 'tool', lastMessageContains: ['[Frontend Specialist Agent] Completed.', 'The vision model sees the dashboard'] }),
  ],
  agents: [{
    name: 'browser',
    match: { systemContains: BROWSER_AGENT, taskContains: 'Browser case' },
    turns: [
      { expect: { lastMessageRole: 'user', toolsInclude: ['browser_navigate', 'browser_screenshot', 'browser_click'] }, toolCalls: [{ name: 'browser_navigate', arguments: { url: FIXTURE_URL } }] },
      { expect: { lastMessageRole: 'tool', lastMessageContains: 'Page: "Fixture Login"' }, toolCalls: [{ name: 'browser_screenshot', arguments: {} }] },
      // The model sees the image (the grid tells it where the fields are) and types into them.
      { expect: { lastMessageContains: 'Screenshot: 1024x768', lastImage: { width: 1024, height: 768 } }, toolCalls: [{ name: 'browser_type', arguments: { x: 200, y: 116, text: 'alice' } }] },
      { expect: { lastMessageContains: 'into <input type="text"> "Username"' }, toolCalls: [{ name: 'browser_type', arguments: { x: 200, y: 165, text: 's3cret' } }] },
      { expect: { lastMessageContains: 'into <input type="password"> "Password"' }, toolCalls: [{ name: 'browser_click', arguments: { x: 345, y: 214 } }] },
      { expect: { lastMessageContains: 'Clicked <button> "Sign In"' }, toolCalls: [{ name: 'browser_wait', arguments: { selector: '#welcome' } }, { name: 'browser_info', arguments: {} }] },
      { expect: { lastMessageContains: ['Title: Dashboard', '#welcome is on the page.'] }, text: 'Logged in: the page says "Welcome, alice" (title Dashboard).' },
    ],
  }, {
    // frontend-specialist's model sees no images: its screenshot comes back described.
    name: 'frontend',
    match: { systemContains: "You are H's Frontend Specialist Agent", taskContains: 'Browser case check' },
    turns: [
      { expect: { lastMessageRole: 'user', toolsInclude: ['browser_screenshot'] }, toolCalls: [{ name: 'browser_screenshot', arguments: {} }] },
      { expect: { lastMessageRole: 'tool', lastMessageContains: ['Screenshot: 1024x768', 'Description (by the vision model):', 'A dashboard headed "Welcome, alice"'] }, text: 'The vision model sees the dashboard: "Welcome, alice".' },
    ],
  }, {
    // BROWSER_VISION_MODEL names this scenario: the describe request comes here, with the image.
    name: 'vision',
    match: { systemContains: 'You describe browser screenshots' },
    turns: [{ expect: { lastMessageRole: 'user', lastImage: { width: 1024, height: 768 }, lastMessageContains: 'Title: Dashboard' }, text: 'A dashboard headed "Welcome, alice" at about (200, 80).' }],
  }],
});

describe('browser sub-agent', () => {
  let crash: CrashWorld;

  beforeAll(async () => {
    crash = await startCrashWorld('browser', [scenario], { BROWSER_VISION_MODEL: 'scripted:browser-login' });
  }, 600_000);

  afterAll(() => crash?.close());

  it('should log into a web app served in the sandbox by screenshot and coordinates, report it to the parent, and describe the page to an agent without vision', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: TASK });
    const parent = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'], 240_000);
    expect(model.failures).toEqual([]);
    expect({ status: parent.status, error: parent.error }).toEqual({ status: 'completed', error: null });
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);

    // The page really did it: the app recorded exactly one login POST with what was typed.
    const files = await workspaceFiles(stack, world);
    try {
      const logins = (await files.read('logins.jsonl')).trim().split('\n').map((l) => JSON.parse(l));
      expect(logins).toEqual([{ user: 'alice', password: 's3cret' }]);
    } finally {
      await files.close();
    }
    // The screenshot went to the model as an image and is in the log (the conversation rebuilds).
    const shot = events.find((e) => e.type === 'tool.end' && e.data.name === 'browser_screenshot');
    expect(shot.data.image).toEqual({ mimeType: 'image/png', data: expect.any(String) });
    const delegate = events.find((e) => e.type === 'tool.end' && e.data.name === 'delegate_task');
    expect(delegate.data.result).toContain('Welcome, alice');
    // frontend-specialist got the text, not the image; the vision model got the image.
    const described = events.filter((e) => e.type === 'tool.end' && e.data.name === 'browser_screenshot').at(-1);
    expect(described.data.image).toBeUndefined();
    expect(described.data.result).toContain('A dashboard headed "Welcome, alice"');
    // The main agent was never offered a browser tool.
    const parentRequests = model.requests.filter((r) => r.scenario === 'browser-login');
    expect(parentRequests.flatMap((r) => (r.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name)).filter((n: string) => n.startsWith('browser_'))).toEqual([]);
  }, 400_000);
});
