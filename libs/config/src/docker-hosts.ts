// SANDBOX_DOCKER_HOSTS: the Docker engines sandboxes are spread over (libs/sandbox, docker-placement.ts).

/** One Docker engine sandboxes may be placed on. */
export interface DockerHostConfig {
  /** Recorded per workspace (Sandbox.host, SandboxRecord.host); letters, digits, `-`, `_`. */
  name: string;
  /** unix:///path or tcp://host:port, as DOCKER_HOST. */
  endpoint: string;
  /** Sandboxes it takes at most (running or stopped); absent: no limit of its own. */
  maxSandboxes?: number;
}

/**
 * Parses SANDBOX_DOCKER_HOSTS: `name=endpoint[;max=N]` entries separated by commas, e.g.
 * `a=unix:///var/run/docker.sock,b=tcp://10.0.0.7:2375;max=20`. Throws a message naming the entry.
 */
export function parseDockerHosts(value: string): DockerHostConfig[] {
  const hosts: DockerHostConfig[] = [];
  for (const raw of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [head, ...options] = raw.split(';');
    const eq = head.indexOf('=');
    const name = eq > 0 ? head.slice(0, eq) : '';
    const endpoint = head.slice(eq + 1);
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) throw new Error(`"${raw}": start each entry with a name (letters, digits, - or _) and "="`);
    if (!/^(unix:\/\/\/\S+|tcp:\/\/[^/\s;]+)$/.test(endpoint)) throw new Error(`"${raw}": the endpoint must be unix:///path/to/docker.sock or tcp://host:port`);
    if (hosts.some((h) => h.name === name)) throw new Error(`"${name}" is listed twice`);
    const host: DockerHostConfig = { name, endpoint };
    for (const option of options) {
      const m = /^max=(\d{1,6})$/.exec(option.trim());
      if (!m || Number(m[1]) < 1) throw new Error(`"${raw}": unknown option "${option}" (max=N, N ≥ 1)`);
      host.maxSandboxes = Number(m[1]);
    }
    hosts.push(host);
  }
  if (!hosts.length) throw new Error('list at least one host, e.g. local=unix:///var/run/docker.sock');
  return hosts;
}
