import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { apiRegistry, startDefaultMetrics, workerRegistry } from '@h/telemetry';

// The dashboard and the scrape config are read by tools CI cannot run (Grafana, Prometheus): these
// checks catch a panel over a metric nobody exports and a scrape of a path nobody serves.
const root = join(__dirname, '..', '..');
const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/h-dashboard.json'), 'utf8'));
const prometheus = parse(readFileSync(join(root, 'deploy/prometheus/prometheus.yml'), 'utf8'));
const monitoring = parse(readFileSync(join(root, 'deploy/prometheus/monitoring.compose.yml'), 'utf8'));

type Panel = { type: string; title: string; targets?: { expr: string }[] };

async function exportedNames(): Promise<Set<string>> {
  startDefaultMetrics('api');
  startDefaultMetrics('worker');
  const names = new Set<string>();
  for (const registry of [apiRegistry, workerRegistry]) {
    for (const m of await registry.getMetricsAsJSON()) {
      names.add(m.name);
      if (m.type === ('histogram' as unknown)) for (const s of ['_bucket', '_count', '_sum']) names.add(`${m.name}${s}`);
    }
  }
  return names;
}

describe('deploy/grafana/h-dashboard.json', () => {
  it('should chart only metrics the api or the worker exports', async () => {
    const names = await exportedNames();
    const panels = (dashboard.panels as Panel[]).filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(20);
    const unknown: string[] = [];
    for (const p of panels) {
      if (!p.targets?.length) unknown.push(`${p.title}: no query`);
      for (const t of p.targets ?? []) {
        for (const [name] of t.expr.matchAll(/\b(?:h|nodejs|process)_[a-z0-9_]+\b/g)) if (!names.has(name)) unknown.push(`${p.title}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('should chart every h_ metric somewhere', async () => {
    const charted = JSON.stringify(dashboard.panels);
    const missing = [...(await exportedNames())].filter((n) => n.startsWith('h_') && !/_(bucket|sum)$/.test(n)).filter((n) => !charted.includes(n.replace(/_count$/, '')));
    expect(missing).toEqual([]);
  });
});

describe('deploy/prometheus', () => {
  it('should scrape the api at /api/metrics and the worker at /metrics with the token from a file', () => {
    const jobs = Object.fromEntries((prometheus.scrape_configs as Array<Record<string, any>>).map((j) => [j.job_name, j]));
    expect(jobs['h-api']).toMatchObject({ metrics_path: '/api/metrics', authorization: { type: 'Bearer', credentials_file: '/etc/prometheus/h-metrics-token' } });
    expect(jobs['h-worker']).toMatchObject({ metrics_path: '/metrics', authorization: { type: 'Bearer', credentials_file: '/etc/prometheus/h-metrics-token' } });
    expect(jobs['h-api'].dns_sd_configs[0]).toMatchObject({ names: ['api'], port: 3000 });
    expect(jobs['h-worker'].dns_sd_configs[0]).toMatchObject({ names: ['worker'], port: 3002 });
  });

  it('should mount files that exist (paths relative to the repository root, the compose project directory)', () => {
    const mounts = Object.values(monitoring.services as Record<string, { volumes: string[] }>).flatMap((s) => s.volumes.filter((v) => v.startsWith('./')).map((v) => v.split(':')[0]));
    const missing = mounts.filter((m) => !m.endsWith('h-metrics-token') && !existsSync(join(root, m)));
    expect(missing).toEqual([]);
  });
});
