import type { MemoryView } from '@h/db';
import type { MemoryPort } from '@h/tools';
import type { MemoryActor, MemoryService } from './memory.service';

/** remember / recall / forget of one run: its user's and its workspace's memory, changes attributed to the run. */
export function memoryToolPort(service: MemoryService, view: MemoryView, actor: MemoryActor): MemoryPort {
  return {
    remember: async (req) => {
      const { memory: _memory, ...outcome } = await service.remember(view, actor, req);
      return outcome;
    },
    recall: (q) => service.recall(view, q),
    forget: (key, scope) => service.forget(view, actor, key, scope),
  };
}
