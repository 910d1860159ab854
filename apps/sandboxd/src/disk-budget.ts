import { sandboxdEnv } from '@h/config/sandboxd';

// The driver tells the daemon the workspace's disk budget (SANDBOXD_DISK_MB), so a full disk is
// explained in the words of the product rather than only the kernel's "No space left on device".
const budgetMb = sandboxdEnv().SANDBOXD_DISK_MB;

export function diskFullMessage(): string {
  const budget = budgetMb ? `the workspace disk budget of ${budgetMb} MB is used up` : 'the workspace disk is full';
  return `No space left on device: ${budget}; delete files (build outputs, caches) to free space`;
}

const ENOSPC_TEXT = /No space left on device|Disk quota exceeded/;

/** A hint appended to a command's stderr when its output shows it ran out of disk. */
export function diskFullHint(stdout: string, stderr: string): string {
  return ENOSPC_TEXT.test(stderr) || ENOSPC_TEXT.test(stdout) ? `\n[H] ${diskFullMessage()}.\n` : '';
}
