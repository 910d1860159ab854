import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { assertOneHandlerPerJob, isJobName, JOB_HANDLER_KEY, JobName, parseJobPayload } from '@h/jobs';

type Handler = (payload: unknown) => Promise<void>;

// Finds every @OnJob method at boot, refuses to start unless each job has exactly one handler,
// then routes jobs by name with their payload validated against the registry.
@Injectable()
export class JobDispatcher implements OnApplicationBootstrap {
  private readonly logger = new Logger(JobDispatcher.name);
  private readonly handlers = new Map<JobName, Handler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const found: { job: string; owner: string; fn: Handler }[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const job = this.reflector.get<string>(JOB_HANDLER_KEY, proto[method]);
        if (!job) continue;
        found.push({ job, owner: `${proto.constructor.name}.${method}`, fn: (p) => (instance[method] as Handler).call(instance, p) });
      }
    }
    assertOneHandlerPerJob(found);
    for (const h of found) this.handlers.set(h.job as JobName, h.fn);
    this.logger.log({ jobs: found.map((h) => `${h.job} -> ${h.owner}`) }, 'job handlers registered');
  }

  async dispatch(name: string, data: unknown): Promise<void> {
    if (!isJobName(name)) throw new Error(`unknown job "${name}"`);
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`no handler for job "${name}"`);
    await handler(parseJobPayload(name, data));
  }
}
