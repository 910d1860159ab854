import type { PermissionMode } from '@h/contracts';

// What each mode does in H (the worker's authorize step): only `approve` ever asks. `bypass` and
// `skip` behave the same, both run every command, write and delete at once; `skip` is the h2c
// name (`skip_permissions`) kept for its clients. Every tool call is in the session log in every
// mode, so no mode claims to record more than another. `offered`: a choice in the new-session
// form; `skip` is not (a second name for Bypass would only make people wonder what differs), but a
// session an h2c client made with it still shows its mode.
export const MODE_INFO: Record<PermissionMode, { label: string; short: string; help: string; asks: boolean; offered: boolean }> = {
  approve: { label: 'Approve', short: 'Ask before changes', help: 'Reads freely; asks before each command, write or delete.', asks: true, offered: true },
  bypass: { label: 'Bypass', short: 'Never ask', help: 'Never asks: commands, writes and deletes run at once.', asks: false, offered: true },
  skip: { label: 'Skip', short: 'Never ask (h2c)', help: 'Same as Bypass: never asks. The name h2c clients use.', asks: false, offered: false },
};
