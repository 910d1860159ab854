// No @h/* imports: jest's global setup and teardown load this without the module mapping.
/** Removes the containers and volumes a test stack's sandboxes left behind. */
export async function removeSandboxes(prefix: string): Promise<void> {
  const Docker = (await import('dockerode')).default;
  const docker = new Docker();
  const containers = await docker.listContainers({ all: true }).catch(() => []);
  for (const c of containers) {
    if (c.Names.some((n) => n.replace(/^\//, '').startsWith(prefix))) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
  }
  const { Volumes } = await docker.listVolumes().catch(() => ({ Volumes: [] as { Name: string }[] }));
  for (const v of Volumes ?? []) if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove({ force: true }).catch(() => undefined);
}
