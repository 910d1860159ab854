import { p, params } from '../../tool-params';
import type { AgentTool } from '../../tool.types';
import { browserCall, pageLine } from './browser-call';

const navigateInput = params({ url: p.string('http:// or https:// URL, e.g. http://localhost:3000') });

export const browserNavigateTool: AgentTool<typeof navigateInput.zod._output> = {
  name: 'browser_navigate',
  description:
    'Navigate to a URL (http/https only). Creates a new browser tab if none exists, or navigates the active tab. The browser runs inside the workspace sandbox, so it reaches dev servers started there (e.g. http://localhost:3000).',
  category: 'read',
  parameters: navigateInput.json,
  input: navigateInput.zod,
  async execute({ url }, ctx) {
    const state = await browserCall(ctx, 'browser.navigate', { url, by: 'agent' });
    return { text: `Navigated to ${url}.\n${pageLine(state)}`, data: state };
  },
};

const infoInput = params({});

export const browserInfoTool: AgentTool<typeof infoInput.zod._output> = {
  name: 'browser_info',
  description: 'Get current browser tab state: URL, page title, load status, and open tab count.',
  category: 'read',
  parameters: infoInput.json,
  input: infoInput.zod,
  async execute(_input, ctx) {
    const state = await browserCall(ctx, 'browser.state', {});
    const tab = state.tabs.find((t) => t.id === state.activeTabId);
    if (!tab) return { text: 'No tab is open: use browser_navigate first.', data: state };
    const { dialog } = await browserCall(ctx, 'browser.dialog', {});
    const lines = [
      `URL: ${tab.url}`,
      `Title: ${tab.title}`,
      `Status: ${tab.loading ? 'loading' : 'loaded'}`,
      `Tabs: ${state.tabs.length}`,
      ...(dialog ? [`Blocked on a ${dialog.type} dialog (id ${dialog.id}): "${dialog.message.slice(0, 300)}"; answer it with browser_respond_dialog.`] : []),
    ];
    return { text: lines.join('\n'), data: state };
  },
};
