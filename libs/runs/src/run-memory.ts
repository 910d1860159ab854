import { Injectable, Logger } from '@nestjs/common';
import type { Conversation } from '@h/agent';
import { AppConfig } from '@h/config';
import type { EventEnvelope, RunRecord } from '@h/db';
import { JobName, JobQueueService } from '@h/jobs';
import type { ModelProvider } from '@h/llm';
import { MemoryService, memoryToolPort, type MemoryEmbedder } from '@h/memory';
import type { MemoryPort } from '@h/tools';

/** An embeddings request may hold up a run's start this long; then it ranks without them. */
const EMBED_TIMEOUT_MS = 5_000;

/** The person's message this run answers: the log's last message.user that a person wrote. */
function lastUserMessage(log: readonly EventEnvelope[]): string | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.type === 'message.user' && !(e.data as { synthetic?: boolean }).synthetic) return (e.data as { content: string }).content;
  }
  return null;
}

/**
 * What a run gets from persistent memory (libs/memory), for AgentRunJob: the tools' store, the
 * entries told once at the run's first segment (selected here, once: the engine only places them
 * after the cached prefix), auto-capture of the message's explicit preferences, the sub-agents'
 * user-profile subset, and the maintenance pass queued after the run. Memory failing costs the
 * run its memory, never the run.
 */
@Injectable()
export class RunMemory {
  private readonly logger = new Logger(RunMemory.name);

  constructor(
    private readonly config: AppConfig,
    private readonly memory: MemoryService,
    private readonly jobs: JobQueueService,
  ) {}

  private view(run: RunRecord, workspaceId: string) {
    return { teamId: run.teamId, userId: run.userId, workspaceId };
  }

  /** The store for remember/recall/forget: main agents only (no sub-agent profile lists the tools). */
  store(run: RunRecord, workspaceId: string): MemoryPort | undefined {
    return run.parentRunId ? undefined : memoryToolPort(this.memory, this.view(run, workspaceId), { userId: run.userId, runId: run.id });
  }

  /**
   * At a main run's first segment: the entries to tell (relevant to its message, new or changed
   * since the session last told them), then the message's explicit preferences remembered.
   */
  async opening(run: RunRecord, workspaceId: string, log: readonly EventEnvelope[], conversation: Conversation, provider?: ModelProvider): Promise<{ content: string; ids: string[] } | undefined> {
    if (run.parentRunId || conversation.stepsSinceMessage > 0 || conversation.openCalls().length > 0) return undefined;
    const message = lastUserMessage(log);
    if (message === null) return undefined;
    const view = this.view(run, workspaceId);
    const selection = await this.memory
      .selectForRun(view, message, { maxBytes: this.config.env.AGENT_MEMORY_MAX_BYTES, told: conversation.toldMemories, embedder: this.embedder(provider) })
      .catch((err: unknown) => (this.logger.warn({ runId: run.id, err }, 'memory selection failed; the run goes on without it'), null));
    if (this.config.env.AGENT_MEMORY_AUTO_CAPTURE === 'on') {
      await this.memory.capture(view, { userId: run.userId, runId: run.id }, message).catch((err: unknown) => this.logger.warn({ runId: run.id, err }, 'memory auto-capture failed'));
    }
    return selection?.content ? { content: selection.content, ids: selection.ids } : undefined;
  }

  /** The run provider's embeddings model for ranking, when one is configured and the provider has the API. */
  private embedder(provider?: ModelProvider): MemoryEmbedder | undefined {
    const model = this.config.env.MEMORY_EMBEDDINGS_MODEL;
    if (!model || !provider?.embed) return undefined;
    const embed = provider.embed.bind(provider);
    return { model, embed: (inputs) => embed(model, inputs, AbortSignal.timeout(EMBED_TIMEOUT_MS)) };
  }

  /** The ≤ 1,500-character user profile a delegated sub-agent is given (undefined without one). */
  async profile(run: RunRecord, workspaceId: string): Promise<string | undefined> {
    const text = await this.memory.userProfile(this.view(run, workspaceId)).catch(() => '');
    return text || undefined;
  }

  /** Queues the maintenance merge of the run's user and workspace memory (a main run's end). */
  async afterRun(run: RunRecord, workspaceId: string): Promise<void> {
    if (run.parentRunId) return;
    await this.jobs
      .enqueue(JobName.MemoryMaintenance, this.view(run, workspaceId), { jobId: `memory-${run.userId}-${workspaceId}` })
      .catch((err: unknown) => this.logger.warn({ runId: run.id, err }, 'could not queue memory maintenance'));
  }
}
