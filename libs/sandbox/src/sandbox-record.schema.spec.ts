import { sandboxRecordSchema } from './sandbox-record.schema';

describe('sandboxRecordSchema', () => {
  it('should accept what the drivers return and reject a record without a volume', () => {
    const record = { driver: 'docker', workspaceId: 'w', teamId: 't', name: 'h-ws-w', volume: 'h-vol-w', network: 'none', createdAt: '2026-11-29T00:00:00Z' };
    expect(sandboxRecordSchema.parse(record)).toEqual(record);
    expect(sandboxRecordSchema.safeParse({ ...record, volume: '' }).success).toBe(false);
  });
});
