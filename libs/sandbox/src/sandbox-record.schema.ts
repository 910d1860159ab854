import { z } from 'zod';

/** Validates a SandboxRecord read back from storage (e.g. a JSON column) before it is trusted. */
export const sandboxRecordSchema = z.object({
  driver: z.enum(['docker', 'local', 'kubernetes']),
  workspaceId: z.string(),
  teamId: z.string(),
  name: z.string().min(1),
  volume: z.string().min(1),
  containerId: z.string().optional(),
  image: z.string().optional(),
  network: z.string(),
  limits: z
    .object({
      cpus: z.number().positive(),
      memoryBytes: z.number().int().positive(),
      pids: z.number().int().positive(),
      tmpBytes: z.number().int().positive(),
      homeBytes: z.number().int().positive(),
    })
    .partial()
    .optional(),
  diskMb: z.number().int().positive().optional(),
  createdAt: z.string(),
  unsafe: z.boolean().optional(),
  modelGateway: z.boolean().optional(),
  /** The Docker host it was placed on (SANDBOX_DOCKER_HOSTS): lost here, it would be routed to the wrong engine. */
  host: z.string().optional(),
});
