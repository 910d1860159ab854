import type { MemoryCategory, MemoryScope } from '@h/contracts';

/** One remembered entry as the tools show it to the model. */
export interface RecalledMemory {
  key: string;
  content: string;
  scope: MemoryScope;
  category: MemoryCategory;
  tags: string[];
}

export interface RememberRequest {
  key: string;
  value: string;
  category?: MemoryCategory;
  tags?: string[];
  /** The model's choice; the scope guard (libs/memory) corrects it only when absent. */
  scope?: MemoryScope;
}

export interface RememberOutcome {
  key: string;
  scope: MemoryScope;
  outcome: 'created' | 'updated' | 'unchanged';
  /** The value it replaced (kept in the entry's history). */
  previous?: string;
}

/**
 * Persistent memory as the run's user and workspace see it (the worker implements it with
 * libs/memory): libs/tools never touches the database.
 */
export interface MemoryPort {
  remember(request: RememberRequest): Promise<RememberOutcome>;
  recall(query: { query?: string; key?: string }): Promise<RecalledMemory[]>;
  forget(key: string, scope?: MemoryScope): Promise<number>;
}
