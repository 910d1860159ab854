import { AppConfig, parseEnv } from '@h/config';
import type { RunRepository, SandboxRepository, WorkspaceRepository } from '@h/db';
import { TeamQuotaService } from './team-quota.service';

// Sandboxes by workspace, all of one team: the repository's contract for find/countRunning.
function service(running: Record<string, 'running' | 'stopped'>, env: Record<string, string> = {}) {
  const sandboxes = {
    find: async (workspaceId: string) => (running[workspaceId] ? { status: running[workspaceId] } : null),
    countRunning: async (_teamId: string, except?: string) => Object.entries(running).filter(([w, s]) => s === 'running' && w !== except).length,
  } as unknown as SandboxRepository;
  const workspaces = { countByTeam: async () => Object.keys(running).length } as unknown as WorkspaceRepository;
  const runs = { countForQuota: async () => 1 } as unknown as RunRepository;
  return new TeamQuotaService(new AppConfig(parseEnv({ NODE_ENV: 'test', ...env })), workspaces, sandboxes, runs);
}

describe(TeamQuotaService.name, () => {
  it('should refuse to start one more sandbox at TEAM_MAX_RUNNING_SANDBOXES and say which setting to raise', async () => {
    const quotas = service({ a: 'running', b: 'running', c: 'stopped' }, { TEAM_MAX_RUNNING_SANDBOXES: '2' });
    await expect(quotas.assertSandboxCanStart('team', 'c')).rejects.toMatchObject({
      status: 429,
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining('TEAM_MAX_RUNNING_SANDBOXES'),
    });
  });

  it('should let a workspace whose sandbox already runs go on, even over a limit lowered since', async () => {
    const quotas = service({ a: 'running', b: 'running' }, { TEAM_MAX_RUNNING_SANDBOXES: '1' });
    await expect(quotas.assertSandboxCanStart('team', 'a')).resolves.toBeUndefined();
  });

  it('should let a sandbox start below the limit', async () => {
    const quotas = service({ a: 'running', b: 'stopped' }, { TEAM_MAX_RUNNING_SANDBOXES: '2' });
    await expect(quotas.assertSandboxCanStart('team', 'b')).resolves.toBeUndefined();
  });

  it('should show each quota with its use, its limit and the setting that sets it', async () => {
    const quotas = service({ a: 'running', b: 'stopped' }, { TEAM_MAX_WORKSPACES: '5', TEAM_MAX_RUNNING_SANDBOXES: '2', TEAM_MAX_ACTIVE_RUNS: '3' });
    await expect(quotas.describe('team')).resolves.toEqual({
      workspaces: { used: 2, limit: 5, setting: 'TEAM_MAX_WORKSPACES' },
      runningSandboxes: { used: 1, limit: 2, setting: 'TEAM_MAX_RUNNING_SANDBOXES' },
      activeRuns: { used: 1, limit: 3, setting: 'TEAM_MAX_ACTIVE_RUNS' },
    });
  });
});
