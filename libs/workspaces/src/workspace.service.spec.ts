import { AppConfig, parseEnv } from '@h/config';
import { QuotaExceededError, type EgressLogRepository, type SandboxRepository, type WorkspaceRecord, type WorkspaceRepository } from '@h/db';
import type { AccessGrant, AuditService, Principal } from '@h/identity';
import type { JobQueueService } from '@h/jobs';
import type { WorkspaceSourceStore } from './workspace-import.port';
import { WorkspaceService } from './workspace.service';

const TEAM = 'team-1';
const me: Principal = { kind: 'user', userId: 'me', sessionId: 's', csrfToken: 'c' };
const as = (role: AccessGrant['role']): AccessGrant => ({ teamId: TEAM, workspaceId: null, role });

function setup(env: Record<string, string> = {}, existing: Partial<WorkspaceRecord>[] = [], sources?: WorkspaceSourceStore) {
  const rows = new Map<string, WorkspaceRecord>();
  for (const w of existing) {
    const row = { id: 'ws-1', teamId: TEAM, name: 'w', description: '', status: 'ready', statusMessage: null, networkEnabled: false, allowedHosts: [], createdById: 'me', createdAt: new Date(), updatedAt: new Date(), ...w } as WorkspaceRecord;
    rows.set(row.id, row);
  }
  const jobs: { name: string; payload: unknown; jobId?: string }[] = [];
  const actions: string[] = [];
  const workspaces = {
    create: async (input: { teamId: string; createdById: string; name: string; description: string }, limit: number) => {
      if ([...rows.values()].filter((w) => w.teamId === input.teamId).length >= limit) throw new QuotaExceededError('workspaces', limit, limit);
      const row: WorkspaceRecord = { ...input, id: `ws-${rows.size + 1}`, status: 'provisioning', statusMessage: null, networkEnabled: false, allowedHosts: [], setupAt: null, createdAt: new Date(), updatedAt: new Date() };
      rows.set(row.id, row);
      return row;
    },
    findById: async (id: string) => rows.get(id) ?? null,
    remove: async (id: string) => void rows.delete(id),
    update: async (id: string, patch: Partial<WorkspaceRecord>) => {
      const row = rows.get(id) as WorkspaceRecord;
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) Object.assign(row, { [k]: v });
      return row;
    },
  } as unknown as WorkspaceRepository;
  const queue = {
    enqueue: async (name: string, payload: unknown, options: { jobId?: string } = {}) => {
      jobs.push({ name, payload, jobId: options.jobId });
      return 'job';
    },
  } as unknown as JobQueueService;
  const audit = { byPrincipal: async (_p: Principal, e: { action: string }) => void actions.push(e.action) } as unknown as AuditService;
  const config = new AppConfig(parseEnv({ NODE_ENV: 'test', ...env }));
  const service = new WorkspaceService(workspaces, {} as SandboxRepository, queue, audit, {} as EgressLogRepository, config, sources);
  return { service, rows, jobs, actions };
}

describe(WorkspaceService.name, () => {
  it('should create a workspace, queue its setup once per workspace and hide who created it', async () => {
    const t = setup();
    const dto = await t.service.create(me, as('member'), { name: '  api  ', description: ' the api ' }, null);
    expect(dto).toMatchObject({ name: 'api', description: 'the api', status: 'provisioning' });
    expect(dto).not.toHaveProperty('createdById');
    expect(t.jobs).toEqual([{ name: 'workspace.setup', payload: { workspaceId: dto.id }, jobId: `setup-${dto.id}` }]);
    expect(t.actions).toEqual(['workspace.create']);
  });

  it('should check a git source before creating anything and store it before setup is queued', async () => {
    const calls: string[] = [];
    const sources = {
      check: async (source: { url: string }) => {
        calls.push(`check ${source.url}`);
        if (source.url === 'bad') throw Object.assign(new Error('bad url'), { status: 400 });
        return { checked: source.url };
      },
      save: async (id: string, checked: unknown) => void calls.push(`save ${id} ${JSON.stringify(checked)}`),
    } as unknown as WorkspaceSourceStore;
    const t = setup({}, [], sources);
    await expect(t.service.create(me, as('member'), { name: 'x', source: { kind: 'git', url: 'bad' } }, null)).rejects.toMatchObject({ status: 400 });
    expect(t.rows.size).toBe(0);
    const dto = await t.service.create(me, as('member'), { name: 'x', source: { kind: 'git', url: 'https://git.example.org/a.git' } }, null);
    expect(calls).toEqual(['check bad', 'check https://git.example.org/a.git', `save ${dto.id} {"checked":"https://git.example.org/a.git"}`]);
    expect(t.jobs).toHaveLength(1);
  });

  it('should remove the workspace again when preparing it fails, and queue no setup', async () => {
    const t = setup();
    await expect(
      t.service.create(me, as('member'), { name: 'x' }, null, async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(t.rows.size).toBe(0);
    expect(t.jobs).toEqual([]);
  });

  it('should answer 409 QUOTA_EXCEEDED naming the setting once the team has TEAM_MAX_WORKSPACES', async () => {
    const t = setup({ TEAM_MAX_WORKSPACES: '1' }, [{ id: 'ws-1' }]);
    await expect(t.service.create(me, as('owner'), { name: 'second' }, null)).rejects.toMatchObject({
      status: 409,
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining('TEAM_MAX_WORKSPACES'),
    });
    expect(t.jobs).toEqual([]);
  });

  it("should answer 404 for another team's workspace", async () => {
    const t = setup({}, [{ id: 'ws-9', teamId: 'team-2' }]);
    await expect(t.service.get(as('owner'), 'ws-9')).rejects.toMatchObject({ status: 404 });
  });

  it('should keep sandbox network settings to NETWORK_ENABLE_MIN_ROLE and let members rename', async () => {
    const t = setup({ NETWORK_ENABLE_MIN_ROLE: 'admin' }, [{ id: 'ws-1' }]);
    await expect(t.service.update(me, as('member'), 'ws-1', { networkEnabled: true }, null)).rejects.toMatchObject({ status: 403 });
    await expect(t.service.update(me, as('member'), 'ws-1', { allowedHosts: ['example.org'] }, null)).rejects.toMatchObject({ status: 403 });
    expect(t.rows.get('ws-1')).toMatchObject({ networkEnabled: false, allowedHosts: [] });
    await expect(t.service.update(me, as('member'), 'ws-1', { name: ' renamed ' }, null)).resolves.toMatchObject({ name: 'renamed' });
    await expect(t.service.update(me, as('admin'), 'ws-1', { networkEnabled: true }, null)).resolves.toMatchObject({ networkEnabled: true });
  });

  it('should store allowed hosts lower-cased and once each, and refuse IPs, ports and URLs', async () => {
    const t = setup({}, [{ id: 'ws-1' }]);
    await expect(
      t.service.update(me, as('admin'), 'ws-1', { allowedHosts: ['Registry.Example.org', 'registry.example.org.', '*.git.example.com'] }, null),
    ).resolves.toMatchObject({ allowedHosts: ['registry.example.org', '*.git.example.com'] });
    for (const bad of ['10.0.0.1', '0x7f000001', 'example.org:443', 'https://example.org', '*.com']) {
      await expect(t.service.update(me, as('admin'), 'ws-1', { allowedHosts: ['ok.example.org', bad] }, null)).rejects.toMatchObject({
        status: 400,
        code: 'INVALID_ALLOWED_HOST',
      });
    }
    expect(t.rows.get('ws-1')?.allowedHosts).toEqual(['registry.example.org', '*.git.example.com']);
  });
});
