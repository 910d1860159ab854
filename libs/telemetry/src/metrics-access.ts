import { createHash, timingSafeEqual } from 'node:crypto';
import { registryOf, type MetricsRole } from './metrics.registry';

export type MetricsAccess = 'ok' | 'disabled' | 'unauthorized';

/**
 * Whether a scrape may read the metrics: only with `Authorization: Bearer <METRICS_TOKEN>`. No
 * token configured means the endpoint is off (nobody may read it), not open.
 */
export function metricsAccess(authorization: string | undefined, token: string | undefined): MetricsAccess {
  if (!token) return 'disabled';
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return 'unauthorized';
  // Compared as digests: equal lengths for timingSafeEqual, and no length leak.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1]), digest(token)) ? 'ok' : 'unauthorized';
}

/** One role's metrics in the Prometheus text format. */
export async function renderMetrics(role: MetricsRole): Promise<{ contentType: string; body: string }> {
  const registry = registryOf(role);
  return { contentType: registry.contentType, body: await registry.metrics() };
}
