import type { AgentTool } from '../../tool.types';
import {
  browserClearTool,
  browserClickTool,
  browserMoveMouseTool,
  browserPressKeyTool,
  browserRightClickTool,
  browserScrollTool,
  browserSelectTool,
  browserTypeTool,
  browserUploadFileTool,
  browserWaitTool,
} from './browser-interact.tool';
import { browserInfoTool, browserNavigateTool } from './browser-navigation.tool';
import {
  browserConsoleTool,
  browserGetDialogTool,
  browserRequestErrorsTool,
  browserRespondDialogTool,
  browserScreenshotTool,
} from './browser-observe.tool';

/**
 * The browser tools in the order of BROWSER_TOOLS (libs/contracts agent-profiles.ts): only the
 * browser profile (and frontend-specialist's three read-only ones) is offered them; the main agent
 * never is (PARENT_EXCLUDED_TOOLS). Fixed order: tool definitions are the cached request prefix.
 */
export const BROWSER_AGENT_TOOLS: readonly AgentTool[] = [
  browserNavigateTool,
  browserInfoTool,
  browserScreenshotTool,
  browserClickTool,
  browserTypeTool,
  browserClearTool,
  browserSelectTool,
  browserPressKeyTool,
  browserConsoleTool,
  browserRequestErrorsTool,
  browserScrollTool,
  browserWaitTool,
  browserMoveMouseTool,
  browserRightClickTool,
  browserUploadFileTool,
  browserGetDialogTool,
  browserRespondDialogTool,
];
