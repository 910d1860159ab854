import { z } from 'zod';
import { hostEnv } from './host-env';

// Variables of the tools around the server rather than the server itself: the standalone scripted
// model server and `next dev`'s proxy.
// Each default lives where the tool applies it (named in the comment), never twice.
export const toolEnvSchema = z.object({
  /** Scripted model server (apps/model-server): port (default 4010), host (default 127.0.0.1), scenario dir, required bearer key. */
  MODEL_SERVER_PORT: z.string().optional(),
  MODEL_SERVER_HOST: z.string().optional(),
  MODEL_SERVER_SCENARIOS: z.string().optional(),
  MODEL_SERVER_API_KEY: z.string().optional(),
  /** `next dev` only: forward /api/* to this running api (e.g. http://127.0.0.1:3000); unset: no rewrite. */
  API_INTERNAL_URL: z.string().url().optional(),
});

export type ToolEnv = z.infer<typeof toolEnvSchema>;

export function toolEnv(source: Readonly<Record<string, string | undefined>> = hostEnv()): ToolEnv {
  const names = Object.keys(toolEnvSchema.shape);
  const picked = Object.fromEntries(Object.entries(source).filter(([k, v]) => names.includes(k) && v !== undefined && v !== ''));
  const result = toolEnvSchema.safeParse(picked);
  if (!result.success) {
    throw new Error(`Invalid environment: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return result.data;
}
