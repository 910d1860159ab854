import { placeSandbox, type HostCandidate } from './docker-placement';

const host = (name: string, over: Partial<HostCandidate> = {}): HostCandidate => ({ name, healthy: true, sandboxes: 0, sharesFilesystem: true, ...over });

describe(placeSandbox.name, () => {
  it('should place on the healthy host with the fewest sandboxes, the first listed on a tie', () => {
    expect(placeSandbox([host('a', { sandboxes: 3 }), host('b', { sandboxes: 1 }), host('c', { sandboxes: 1 })], { sharedFilesystem: false })).toEqual({ host: 'b' });
    expect(placeSandbox([host('a', { sandboxes: 0, healthy: false }), host('b', { sandboxes: 5 })], { sharedFilesystem: false })).toEqual({ host: 'b' });
  });

  it('should skip full hosts and say so when every host is full', () => {
    expect(placeSandbox([host('a', { sandboxes: 2, maxSandboxes: 2 }), host('b', { sandboxes: 9 })], { sharedFilesystem: false })).toEqual({ host: 'b' });
    expect(placeSandbox([host('a', { sandboxes: 2, maxSandboxes: 2 })], { sharedFilesystem: false })).toMatchObject({ error: 'full', detail: expect.stringContaining('a 2/2') });
  });

  it('should put a workspace that needs this machine\'s mounts only on a host that shares it', () => {
    const hosts = [host('remote', { sharesFilesystem: false }), host('here', { sandboxes: 7 })];
    expect(placeSandbox(hosts, { sharedFilesystem: true })).toEqual({ host: 'here' });
    expect(placeSandbox([host('remote', { sharesFilesystem: false })], { sharedFilesystem: true })).toMatchObject({ error: 'no-capability' });
    expect(placeSandbox([host('a', { healthy: false })], { sharedFilesystem: false })).toMatchObject({ error: 'none-healthy' });
  });
});
