'use client';

import { DataTable } from '../../components/data-table';
import { FormError } from '../../components/form-error';
import type { Quota, TeamQuotas } from '@h/contracts';
import { useApiQuery } from '../../lib/use-api-query';

const ROWS: { key: keyof TeamQuotas; label: string }[] = [
  { key: 'workspaces', label: 'Workspaces' },
  { key: 'runningSandboxes', label: 'Sandboxes running' },
  { key: 'activeRuns', label: 'Agent runs queued or running' },
];

// What the team may use and uses now, so a refused request is no surprise.
export function QuotasSection({ base }: { base: string }) {
  const quotas = useApiQuery<TeamQuotas>(`${base}/quotas`);
  const data = quotas.data;
  return (
    <section className="panel" aria-labelledby="quotas-heading">
      <h2 id="quotas-heading">Limits</h2>
      <p className="muted section-intro">The same for every team of this H; ask its administrator to raise one.</p>
      {quotas.error ? <FormError message={quotas.error.message} /> : null}
      {data ? (
        <DataTable label="Limits" columns={['What', 'In use', 'Limit', 'Setting']}>
          {ROWS.map((r) => (
            <QuotaRow key={r.key} label={r.label} quota={data[r.key]} />
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

function QuotaRow({ label, quota }: { label: string; quota: Quota }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        {quota.used}
        {quota.used >= quota.limit ? <span className="badge"> full</span> : null}
      </td>
      <td>{quota.limit}</td>
      <td className="mono small">{quota.setting}</td>
    </tr>
  );
}
