import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { startDefaultMetrics, type MetricsRole } from './metrics.registry';
import { startTracing, type TracingHandle } from './tracing';

const ROLE = Symbol('telemetry role');

/**
 * Starts the process's telemetry with the app: its role's default metrics, and the tracer when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Flushes and stops the tracer on shutdown (if it started it).
 */
@Injectable()
export class Telemetry implements OnApplicationShutdown {
  readonly tracing: TracingHandle;

  constructor(config: AppConfig, @Inject(ROLE) role: MetricsRole) {
    startDefaultMetrics(role);
    this.tracing = startTracing({ endpoint: config.env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: config.env.OTEL_SERVICE_NAME ?? `h-${role}` });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.tracing.owner) await this.tracing.shutdown();
  }
}

@Module({})
export class TelemetryModule {
  static forRoot(role: MetricsRole): DynamicModule {
    return {
      module: TelemetryModule,
      global: true,
      providers: [{ provide: ROLE, useValue: role }, Telemetry],
      exports: [Telemetry],
    };
  }
}
