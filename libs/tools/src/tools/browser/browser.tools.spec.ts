import { BROWSER_TOOLS } from '@h/contracts';
import type { SandboxBrowserState } from '@h/sandbox-protocol';
import type { BrowserHost } from '../../browser-host';
import { ToolRegistry } from '../../tool.registry';
import { newRunToolState, type ToolContext } from '../../tool.types';
import { MemoryOutputStore } from '../../output.store';
import { BROWSER_AGENT_TOOLS } from './browser.tools';

const state: SandboxBrowserState = {
  tabs: [{ id: 'tab-1', url: 'http://localhost:3000/', title: 'Login', loading: false, canGoBack: false, canGoForward: false }],
  activeTabId: 'tab-1',
  viewport: { width: 1024, height: 768 },
};

function context(host: Partial<BrowserHost> & Pick<BrowserHost, 'call'>): ToolContext {
  return {
    workspace: {} as never,
    signal: new AbortController().signal,
    outputs: new MemoryOutputStore(),
    state: newRunToolState(),
    browser: { vision: true, ...host },
  };
}

describe('browser tools', () => {
  const registry = new ToolRegistry(BROWSER_AGENT_TOOLS);

  it('should be exactly the seed\'s 17, in the table\'s order', () => {
    expect(registry.definitions().map((d) => d.name)).toEqual([...BROWSER_TOOLS]);
  });

  it('should give the model the screenshot as an image with the Screenshot: WxH header', async () => {
    const ctx = context({ call: (async () => ({ data: 'PNG', width: 1024, height: 768, url: 'http://localhost:3000/', title: 'Login' })) as never });
    const r = await registry.run('browser_screenshot', JSON.stringify({}), ctx);
    expect(r.text).toBe('URL: http://localhost:3000/\nTitle: Login\nScreenshot: 1024x768');
    expect(r.image).toEqual({ mimeType: 'image/png', data: 'PNG' });
  });

  it('should describe the screenshot in text for a model without vision, or say no vision model is configured', async () => {
    const shot = (async () => ({ data: 'PNG', width: 800, height: 600, url: 'u', title: 't' })) as never;
    const described = await registry.run('browser_screenshot', JSON.stringify({}), context({ call: shot, vision: false, describe: async () => 'A login form.' }));
    expect(described.image).toBeUndefined();
    expect(described.text).toContain('Screenshot: 800x600\nDescription (by the vision model):\nA login form.');
    const none = await registry.run('browser_screenshot', JSON.stringify({}), context({ call: shot, vision: false, describe: async () => null }));
    expect(none.text).toContain('no vision model is configured');
    expect(none.isError).toBeFalsy();
  });

  it('should report what a click hit and the page after it, as the agent', async () => {
    const calls: unknown[] = [];
    const ctx = context({ call: (async (method: string, params: unknown) => (calls.push([method, params]), { target: '<button> "Sign In"', x: 180, y: 214, state })) as never });
    const r = await registry.run('browser_click', JSON.stringify({ x: 345, y: 214 }), ctx);
    expect(calls).toEqual([['browser.click', { x: 345, y: 214, by: 'agent' }]]);
    expect(r.text).toBe('Clicked <button> "Sign In" at (180, 214).\nPage: "Login" http://localhost:3000/');
  });

  it('should turn the sandbox\'s refusal into an error result the model reads', async () => {
    const ctx = context({ call: async () => { throw new Error('only http and https URLs can be opened, not file:'); } });
    const r = await registry.run('browser_navigate', JSON.stringify({ url: 'file:///etc/passwd' }), ctx);
    expect(r).toMatchObject({ isError: true, text: 'only http and https URLs can be opened, not file:' });
  });

  it('should refuse when the workspace has no browser', async () => {
    const ctx = { ...context({ call: async () => null as never }), browser: undefined };
    expect(await registry.run('browser_info', JSON.stringify({}), ctx)).toMatchObject({ isError: true, text: expect.stringContaining('no browser') });
  });
});
