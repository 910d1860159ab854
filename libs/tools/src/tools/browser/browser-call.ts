import type { BrowserMethods, BrowserTargetResult, SandboxBrowserState } from '@h/sandbox-protocol';
import { p } from '../../tool-params';
import { ToolError, type ToolContext } from '../../tool.types';

/** Calls the sandbox's browser; its refusals (bad URL, open dialog, timeout) become the model's to read. */
export async function browserCall<M extends keyof BrowserMethods>(ctx: ToolContext, method: M, params: BrowserMethods[M][0]): Promise<BrowserMethods[M][1]> {
  if (!ctx.browser) throw new ToolError('This workspace has no browser (its sandbox is not running).');
  try {
    return await ctx.browser.call(method, params);
  } catch (e) {
    throw new ToolError(e instanceof Error ? e.message : String(e));
  }
}

export const coordinates = {
  x: p.integer('x in screenshot-image pixels (the Screenshot: WxH space)'),
  y: p.integer('y in screenshot-image pixels'),
};

/** One line about the page after an action: what the model needs to know whether it worked. */
export function pageLine(state: SandboxBrowserState): string {
  const tab = state.tabs.find((t) => t.id === state.activeTabId);
  if (!tab) return 'No tab is open.';
  return `Page: ${tab.title ? `"${tab.title}" ` : ''}${tab.url}${tab.loading ? ' (still loading)' : ''}`;
}

export function hitLine(verb: string, r: BrowserTargetResult, rest = ''): string {
  const what = r.target ? `${r.target}` : 'nothing interactive (no element within reach; aim at the element)';
  return `${verb} ${what} at (${Math.round(r.x)}, ${Math.round(r.y)})${rest}.\n${pageLine(r.state)}`;
}
