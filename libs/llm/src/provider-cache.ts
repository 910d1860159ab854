import { createHash } from 'node:crypto';
import type { ModelProvider } from './model-provider';

/**
 * Providers kept per API key (and whatever else the caller folds into the key), so a worker sets
 * up its HTTP client once, not once per run: the OpenAI client and the kept-alive connections it
 * draws on are reused across runs (bench/runs). Keys are hashed, never held as map keys. Bounded:
 * past `max` entries the least recently used one goes (a provider holds no resources that need
 * closing; its idle connections time out by themselves).
 */
export class ProviderCache<P extends ModelProvider = ModelProvider> {
  private readonly entries = new Map<string, P>();

  constructor(private readonly max = 64) {}

  get(secret: string, make: () => P): P {
    const key = createHash('sha256').update(secret).digest('base64url');
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.entries.set(key, made);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return made;
  }

  get size(): number {
    return this.entries.size;
  }
}
