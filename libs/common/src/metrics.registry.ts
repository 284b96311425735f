import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Every Prometheus metric of the service, on a registry of its own (one per application instance). */
export class Metrics {
  readonly registry = new Registry();

  /** Observations by outcome: stored as an event, unchanged (time-only change, counted not stored), duplicate (redelivery). */
  readonly observations = new Counter({
    name: 'ssa_audit_observations_total',
    help: 'Observations ingested, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly ingestBatchSeconds = new Histogram({
    name: 'ssa_audit_ingest_batch_seconds',
    help: 'Time to append one ingest batch (one transaction)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly ingestLagSeconds = new Histogram({
    name: 'ssa_audit_ingest_lag_seconds',
    help: 'From observation (observedAt) to the commit of its event',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly jobs = new Counter({
    name: 'ssa_audit_jobs_total',
    help: 'Jobs handled, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'ssa_audit_' });
  }
}

/** Injection tokens of the shared singletons. */
export const METRICS = Symbol('METRICS');
export const LOGGER = Symbol('LOGGER');
