import type { BrowserFrameEvent, BrowserState } from '@h/contracts';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { TeamFixture, teamWithRoles } from '../api/team-fixture';
import { termWatcher, type TermSocket } from '../terminals/terminal-socket';

// The browser view's socket side (libs/browser) against a real sandbox: viewers watch the
// screencast and the page state, members drive it, outsiders learn nothing, and what a browser tab
// sends is checked (http(s) only, points inside the viewport, short keys, a bounded rate).
const PORT = 4791;

describe('browser view socket', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const sockets: TermSocket[] = [];

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'browser-view');
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack?.close();
  });

  /** A socket that keeps the browser events it gets. */
  async function viewer(role: 'member' | 'viewer' | 'outsider') {
    const w = await termWatcher(stack.url, f[role].client, sockets);
    const states: BrowserState[] = [];
    const frames: BrowserFrameEvent[] = [];
    w.socket.on('browser.state', (s) => states.push(s));
    w.socket.on('browser.frame', (fr) => frames.push(fr));
    return { socket: w.socket, states, frames, terminal: w };
  }

  it('should let a viewer watch what a member does, refuse the viewer\'s actions, and tell an outsider nothing', async () => {
    const member = await viewer('member');
    const watching = await viewer('viewer');
    const outsider = await viewer('outsider');
    const ws = { workspaceId: f.workspaceId };

    // A page to look at, served inside the sandbox (python3 is in the image).
    const opened = await member.socket.emitWithAck('terminal.open', { ...ws, cols: 80, rows: 24 });
    if (!opened.ok) throw new Error(JSON.stringify(opened));
    await member.socket.emitWithAck('terminal.input', { ...ws, terminalId: opened.data.terminal.id, data: `mkdir -p /tmp/site && cd /tmp/site && echo '<title>Hello view</title><h1>hi</h1>' > index.html && python3 -m http.server ${PORT}\r` });
    await waitFor('the page server', async () => member.terminal.text(opened.data.terminal.id).includes(`port ${PORT}`), 30_000);

    expect(await outsider.socket.emitWithAck('browser.subscribe', ws)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await outsider.socket.emitWithAck('browser.navigate', { ...ws, url: `http://127.0.0.1:${PORT}/` })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await watching.socket.emitWithAck('browser.subscribe', ws)).toMatchObject({ ok: true, data: { workspaceId: f.workspaceId } });
    expect(await member.socket.emitWithAck('browser.subscribe', ws)).toMatchObject({ ok: true });

    const navigated = await member.socket.emitWithAck('browser.navigate', { ...ws, url: `http://127.0.0.1:${PORT}/` });
    expect(navigated).toMatchObject({ ok: true });
    if (!navigated.ok) return;
    expect(navigated.data.tabs.find((t) => t.id === navigated.data.activeTabId)?.url).toBe(`http://127.0.0.1:${PORT}/`);
    // The viewer sees the page: its state (title) and frames of it.
    await waitFor('the title in the viewer\'s state', async () => watching.states.some((s) => s.tabs.some((t) => t.title === 'Hello view')), 30_000);
    await waitFor('a frame at the viewer', async () => watching.frames.length > 0, 30_000);
    expect(watching.frames[0]).toMatchObject({ workspaceId: f.workspaceId, tabId: navigated.data.activeTabId });
    expect(Buffer.from(watching.frames[0].data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // JPEG

    // The viewer only watches.
    for (const [event, body] of [
      ['browser.navigate', { ...ws, url: 'http://127.0.0.1:1/' }],
      ['browser.history', { ...ws, action: 'reload' }],
      ['browser.tab', { ...ws, action: 'open' }],
      ['browser.input', { ...ws, input: { kind: 'mouse', type: 'down', x: 10, y: 10 } }],
    ] as const) {
      expect(await (watching.socket.emitWithAck as (e: string, b: unknown) => Promise<unknown>)(event, body)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    // A member's clicks and keys go through.
    expect(await member.socket.emitWithAck('browser.input', { ...ws, input: { kind: 'mouse', type: 'down', x: 20, y: 20, button: 'left', clickCount: 1 } })).toEqual({ ok: true, data: null });
    expect(await member.socket.emitWithAck('browser.input', { ...ws, input: { kind: 'key', type: 'down', key: 'a', text: 'a' } })).toEqual({ ok: true, data: null });
  });

  it('should refuse addresses that are not http(s), points outside the viewport, long keys and floods', async () => {
    const member = await viewer('member');
    const watching = await viewer('viewer');
    const ws = { workspaceId: f.workspaceId };
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://version']) {
      expect(await member.socket.emitWithAck('browser.navigate', { ...ws, url })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    }
    for (const input of [
      { kind: 'mouse', type: 'down', x: 5000, y: 10 },
      { kind: 'mouse', type: 'move', x: -1, y: 10 },
      { kind: 'key', type: 'down', key: 'x'.repeat(100) },
      { kind: 'key', type: 'down', key: 'a', evil: true },
    ]) {
      expect(await (member.socket.emitWithAck as (e: string, b: unknown) => Promise<unknown>)('browser.input', { ...ws, input })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    }
    expect(await member.socket.emitWithAck('browser.tab', { ...ws, action: 'close' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });

    // A flood is cut off per socket before anything else is looked at.
    const answers = await Promise.all(Array.from({ length: 400 }, () => watching.socket.emitWithAck('browser.input', { ...ws, input: { kind: 'mouse', type: 'move', x: 1, y: 1 } })));
    const codes = answers.map((a) => (a.ok ? 'ok' : a.error.code));
    expect(codes).toContain('RATE_LIMITED');
    expect(codes).toContain('FORBIDDEN');
    expect(codes).not.toContain('ok');
  });
});
