import type { WorkspaceStatus } from '@h/contracts';

const LABELS: Record<WorkspaceStatus, string> = {
  provisioning: 'Provisioning',
  ready: 'Ready',
  error: 'Error',
};

export function StatusBadge({ status }: { status: WorkspaceStatus }) {
  return (
    <span className={`badge badge-status-${status}`} data-status={status}>
      {LABELS[status] ?? status}
    </span>
  );
}
