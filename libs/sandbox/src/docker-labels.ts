// Labels on every container and volume the Docker driver creates. The docker socket proxy
// (docker-proxy/docker-api-policy.ts) admits only objects that carry them, and reconcile only ever
// looks at its own namespace.
export const LABEL_MANAGED = 'h.managed';
export const LABEL_TEAM = 'h.team';
export const LABEL_WORKSPACE = 'h.workspace';
export const LABEL_POOL = 'h.pool';
/** The Docker host (SANDBOX_DOCKER_HOSTS) a sandbox was placed on: each host's driver sees only its own. */
export const LABEL_HOST = 'h.host';
/** The driver's name prefix: reconcile only ever touches its own namespace. */
export const LABEL_NAMESPACE = 'h.ns';

/** Docker list filters selecting one namespace's objects (plus any extra labels, e.g. tests'). */
export function namespaceFilters(prefix: string, extraLabels: Record<string, string> = {}): string[] {
  return [`${LABEL_MANAGED}=1`, `${LABEL_NAMESPACE}=${prefix}`, ...Object.entries(extraLabels).map(([k, v]) => `${k}=${v}`)];
}
