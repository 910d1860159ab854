import { addressGroup } from './client-address';

describe(addressGroup.name, () => {
  it('should keep an IPv4 address as it is, also when it comes IPv4-mapped', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('should group IPv6 addresses by their /64 whatever their spelling', () => {
    const group = '2001:db8:abcd:12::/64';
    for (const ip of ['2001:db8:abcd:12::1', '2001:0db8:abcd:0012:ffff:ffff:ffff:ffff', '2001:DB8:ABCD:12:1:2:3:4', '2001:db8:abcd:12::a:b%eth0']) {
      expect({ ip, group: addressGroup(ip) }).toEqual({ ip, group });
    }
    expect(addressGroup('2001:db8:abcd:13::1')).not.toBe(group);
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('should give one bucket for unknown addresses and pass anything else through', () => {
    expect(addressGroup(null)).toBe('unknown');
    expect(addressGroup('')).toBe('unknown');
    expect(addressGroup('not-an-ip')).toBe('not-an-ip');
  });
});
