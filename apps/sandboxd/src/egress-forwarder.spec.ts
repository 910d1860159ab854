import { sanitizedEnv } from './process-utils';
import { useEgressProxyUrl } from './egress-forwarder';

// What a command in a network-enabled Kubernetes sandbox pod sees: the cluster's egress proxy as
// HTTP(S)_PROXY (SANDBOXD_EGRESS_URL), loopback excluded, whatever the daemon's own environment.
describe(useEgressProxyUrl.name, () => {
  it('should offer every command the egress proxy URL, and not inherit a proxy from the daemon', () => {
    expect(sanitizedEnv({}, { PATH: '/usr/bin', HTTP_PROXY: 'http://leaked:1' }).HTTP_PROXY).toBeUndefined();
    useEgressProxyUrl('http://h-egress-proxy.h:3128');
    const env = sanitizedEnv({ EXTRA: '1' }, { PATH: '/usr/bin' });
    expect(env).toMatchObject({
      HTTP_PROXY: 'http://h-egress-proxy.h:3128',
      HTTPS_PROXY: 'http://h-egress-proxy.h:3128',
      https_proxy: 'http://h-egress-proxy.h:3128',
      NO_PROXY: 'localhost,127.0.0.1',
      EXTRA: '1',
    });
  });
});
