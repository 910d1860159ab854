import { createSandboxDriver } from './sandbox-driver.factory';
import { DockerSandboxDriver } from './docker-sandbox.driver';
import { LocalSandboxRefusedError } from './local-sandbox.driver';
import { sandboxRecordSchema } from './sandbox-record.schema';

describe(createSandboxDriver.name, () => {
  it('should refuse the local driver in multi-user mode unless allowed', async () => {
    await expect(createSandboxDriver({ multiUser: true, env: { H_SANDBOX_DRIVER: 'local' } })).rejects.toBeInstanceOf(LocalSandboxRefusedError);
  });

  it('should build a docker driver from env without touching Docker', async () => {
    const d = await createSandboxDriver({ multiUser: true, env: { H_SANDBOX_IMAGE: 'h-sandbox:x', H_SANDBOX_IDLE_MS: '0', H_SANDBOX_MEMORY_MB: '512' } });
    expect(d).toBeInstanceOf(DockerSandboxDriver);
    expect(d.unsafe).toBe(false);
    await d.close();
  });

  it('should reject nonsense numbers and unknown drivers', async () => {
    await expect(createSandboxDriver({ multiUser: false, env: { H_SANDBOX_IMAGE: 'x', H_SANDBOX_PIDS: 'lots' } })).rejects.toThrow(/H_SANDBOX_PIDS/);
    await expect(createSandboxDriver({ multiUser: false, env: { H_SANDBOX_DRIVER: 'k8s' } })).rejects.toThrow(/H_SANDBOX_DRIVER/);
  });
});

describe('sandboxRecordSchema', () => {
  it('should accept what the drivers return and reject a record without a volume', () => {
    const record = { driver: 'docker', workspaceId: 'w', teamId: 't', name: 'h-ws-w', volume: 'h-vol-w', network: 'none', createdAt: '2026-11-29T00:00:00Z' };
    expect(sandboxRecordSchema.parse(record)).toEqual(record);
    expect(sandboxRecordSchema.safeParse({ ...record, volume: '' }).success).toBe(false);
  });
});
