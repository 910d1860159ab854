// Sub-agent profiles (seed: "Multi-Agent Delegation", Agent Profiles): the one place that says
// which tools each profile may use and which colour its tool cards carry. The browser tools are
// named here and nowhere else: the parent agent never gets them. Tools H does not have yet
// (read_graph; the browser_* set, issue 13) are listed as the seed lists them; a registry offers
// only the ones that exist, so a profile can never be offered a phantom tool.
// Zod-free: the web imports the colours.

/** The seed's "Full filesystem". */
export const FULL_FILESYSTEM_TOOLS = [
  'read_file', 'write_file', 'edit_file', 'list_files', 'search_files', 'grep', 'create_directory', 'rename_file', 'delete_file',
] as const;

export const BROWSER_TOOLS = [
  'browser_navigate', 'browser_info', 'browser_screenshot', 'browser_click', 'browser_type', 'browser_clear', 'browser_select',
  'browser_press_key', 'browser_console', 'browser_request_errors', 'browser_scroll', 'browser_wait', 'browser_move_mouse',
  'browser_right_click', 'browser_upload_file', 'browser_get_dialog', 'browser_respond_dialog',
] as const;

/** The read-only browser tools frontend-specialist uses for visual checks. */
const BROWSER_READ_TOOLS = ['browser_screenshot', 'browser_console', 'browser_request_errors'] as const;
const READ_TOOLS = ['read_file', 'list_files', 'search_files', 'grep', 'read_graph'] as const;

export const AGENT_PROFILE_NAMES = [
  'browser', 'code-search', 'code-writer', 'researcher', 'planner', 'frontend-specialist', 'backend-specialist',
  'security-auditor', 'architect-analyst', 'docs-analyst', 'documentation-writer',
] as const;
export type AgentProfileName = (typeof AGENT_PROFILE_NAMES)[number];

export interface AgentProfile {
  name: AgentProfileName;
  /** Shown on the delegation card ("[Code Search Agent]"). */
  label: string;
  /** Exactly the seed's allowlist, in the seed's order. */
  tools: readonly string[];
  /** The left-border colour of the profile's tool cards (seed: Color coding). */
  colour: string;
  /** The seed's description: what the profile is for (also tells the parent which to pick). */
  description: string;
  /** Whether the seed says it never edits (no write, edit, rename, delete, create in its list). */
  readOnly: boolean;
}

export const AGENT_PROFILES: Readonly<Record<AgentProfileName, AgentProfile>> = {
  browser: {
    name: 'browser', label: 'Browser Agent', tools: BROWSER_TOOLS, colour: 'teal', readOnly: true,
    description: 'Full browser automation: navigates, screenshots, clicks and types by coordinate, scrolls, fills forms, checks console and network, answers dialogs.',
  },
  'code-search': {
    name: 'code-search', label: 'Code Search Agent', tools: READ_TOOLS, colour: 'green', readOnly: true,
    description: 'Read-only code exploration. Finds files, reads code, reports findings. Never edits.',
  },
  'code-writer': {
    name: 'code-writer', label: 'Code Writer Agent', tools: [...FULL_FILESYSTEM_TOOLS, 'run_command', 'read_problems', 'read_graph'], colour: 'amber', readOnly: false,
    description: 'Implements features or fixes bugs. Reads, edits, builds, and verifies.',
  },
  researcher: {
    name: 'researcher', label: 'Researcher Agent', tools: ['read_file', 'list_files', 'search_files', 'grep', 'run_command', 'read_graph'], colour: 'purple', readOnly: true,
    description: 'Explores the codebase to answer questions. Reports with file paths and line numbers.',
  },
  planner: {
    name: 'planner', label: 'Planner Agent', tools: [...READ_TOOLS, 'write_todos'], colour: 'indigo', readOnly: true,
    description: 'Analyzes the project and creates structured step-by-step plans: a todo list of ordered, actionable steps.',
  },
  'frontend-specialist': {
    name: 'frontend-specialist', label: 'Frontend Specialist Agent',
    tools: [...FULL_FILESYSTEM_TOOLS, 'run_command', 'read_problems', 'read_graph', ...BROWSER_READ_TOOLS], colour: 'cyan', readOnly: false,
    description: 'Implements UI features and components. Visually verifies changes in the browser.',
  },
  'backend-specialist': {
    name: 'backend-specialist', label: 'Backend Specialist Agent', tools: [...FULL_FILESYSTEM_TOOLS, 'run_command', 'read_problems', 'read_graph'], colour: 'blue', readOnly: false,
    description: 'Implements API routes, services, and database logic. Focuses on server-side patterns and data integrity.',
  },
  'security-auditor': {
    name: 'security-auditor', label: 'Security Auditor Agent', tools: ['read_file', 'list_files', 'search_files', 'grep', 'run_command', 'read_graph', 'read_problems'], colour: 'red', readOnly: true,
    description: 'Audits code for vulnerabilities. Runs security scans, reports findings with severity and remediation. Never edits.',
  },
  'architect-analyst': {
    name: 'architect-analyst', label: 'Architect Analyst Agent', tools: READ_TOOLS, colour: 'orange', readOnly: true,
    description: 'Analyzes project architecture, dependency graphs, and module structure. Reports architectural concerns and recommendations. Never edits.',
  },
  'docs-analyst': {
    name: 'docs-analyst', label: 'Docs Analyst Agent', tools: READ_TOOLS, colour: 'lime', readOnly: true,
    description: 'Audits documentation coverage and quality. Identifies gaps and outdated docs. Never edits.',
  },
  'documentation-writer': {
    name: 'documentation-writer', label: 'Documentation Writer Agent',
    tools: ['read_file', 'write_file', 'edit_file', 'list_files', 'search_files', 'grep', 'read_graph', 'create_directory'], colour: 'pink', readOnly: false,
    description: 'Creates or improves documentation. Writes README sections, API docs, and guides.',
  },
};

/** The main agent's card colour. */
export const MAIN_AGENT_COLOUR = 'blue';

/** Tools the parent (main) agent is never offered: every browser tool goes through the browser profile. */
export const PARENT_EXCLUDED_TOOLS: ReadonlySet<string> = new Set(BROWSER_TOOLS);

export function isAgentProfileName(name: string): name is AgentProfileName {
  return (AGENT_PROFILE_NAMES as readonly string[]).includes(name);
}

/** Delegation limits (seed: Sub-agent Prefix Caching; delegate_parallel's bounded count). */
export const DELEGATION_LIMITS = {
  /** Sub-agents one delegate_parallel call may start. */
  maxParallel: 4,
  /** Task text the model may hand a sub-agent. */
  maxTaskChars: 8000,
  /** The sub-agent's final report as the parent's tool result (compressed beyond this). */
  maxResultChars: 4000,
  /** Prefix cache: task/summary pairs kept per profile, and their sizes. */
  prefixPairs: 2,
  prefixTaskChars: 500,
  prefixSummaryChars: 1000,
} as const;

/** What a finished (or stopped) sub-agent reports to its parent. */
export interface DelegationOutcome {
  runId: string;
  profile: AgentProfileName;
  task: string;
  status: 'completed' | 'failed' | 'cancelled';
  /** The sub-agent's final report (its summary or last reply), bounded by maxResultChars. */
  result: string;
  error: { code: string; message: string } | null;
}
