import { classifyAddress, hostMatchesAllowlist, isAllowlistEntry, looksLikeIp } from './destination-policy';

describe(classifyAddress.name, () => {
  it.each([
    ['127.0.0.1', 'LOOPBACK_ADDRESS'],
    ['::1', 'LOOPBACK_ADDRESS'],
    ['::ffff:127.0.0.1', 'LOOPBACK_ADDRESS'],
    ['169.254.169.254', 'LINK_LOCAL_ADDRESS'],
    ['fe80::1', 'LINK_LOCAL_ADDRESS'],
    ['10.0.0.1', 'PRIVATE_ADDRESS'],
    ['172.17.0.2', 'PRIVATE_ADDRESS'],
    ['192.168.1.1', 'PRIVATE_ADDRESS'],
    ['100.64.0.1', 'PRIVATE_ADDRESS'],
    ['fd00:ec2::254', 'PRIVATE_ADDRESS'],
    ['::ffff:10.1.2.3', 'PRIVATE_ADDRESS'],
    ['0.0.0.0', 'RESERVED_ADDRESS'],
    ['::', 'RESERVED_ADDRESS'],
    ['224.0.0.1', 'RESERVED_ADDRESS'],
    ['255.255.255.255', 'RESERVED_ADDRESS'],
    ['ff02::1', 'RESERVED_ADDRESS'],
    ['64:ff9b::a00:1', 'RESERVED_ADDRESS'],
    ['not-an-ip', 'RESERVED_ADDRESS'],
  ])('should refuse %s as %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it.each(['104.16.0.1', '8.8.8.8', '2606:4700::1111'])('should accept the public address %s', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });
});

describe(hostMatchesAllowlist.name, () => {
  const list = ['registry.example.org', '*.git.example.com'];

  it('should match exact names case-insensitively and without a trailing dot', () => {
    expect(hostMatchesAllowlist('Registry.EXAMPLE.org.', list)).toBe(true);
  });

  it('should match names below a wildcard but not the wildcard base or look-alikes', () => {
    expect(hostMatchesAllowlist('codeload.git.example.com', list)).toBe(true);
    expect(hostMatchesAllowlist('git.example.com', list)).toBe(false);
    expect(hostMatchesAllowlist('evilgit.example.com', list)).toBe(false);
    expect(hostMatchesAllowlist('registry.example.org.evil.com', list)).toBe(false);
  });

  it('should match nothing when the list is empty', () => {
    expect(hostMatchesAllowlist('registry.example.org', [])).toBe(false);
  });
});

describe(isAllowlistEntry.name, () => {
  it.each(['registry.example.org', '*.git.example.com', 'localhost', 'pypi.example.org'])('should accept %s', (e) => expect(isAllowlistEntry(e)).toBe(true));
  it.each(['10.0.0.1', '*.com', '*', 'a b', 'http://x.org', '', '*.*.x.org', '::1', 'x..org', '2130706433', '127.1', '0x7f000001', '*.10.0.0.1'])('should refuse %s', (e) =>
    expect(isAllowlistEntry(e)).toBe(false),
  );
});

describe(looksLikeIp.name, () => {
  it.each(['127.0.0.1', '127.0.0.1.', '[::1]', 'fe80::1%eth0', '2130706433', '0x7f000001', '127.1', '0177.0.0.1'])('should see %s as an IP address', (h) =>
    expect(looksLikeIp(h)).toBe(true),
  );
  it.each(['registry.example.org', 'localhost', '1password.com', 'x.io'])('should see %s as a name', (h) => expect(looksLikeIp(h)).toBe(false));
});
