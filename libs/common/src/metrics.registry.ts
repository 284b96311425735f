import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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

  readonly projectedEvents = new Counter({
    name: 'ssa_audit_projected_events_total',
    help: 'Events folded into the ownership projections by the live projector',
    registers: [this.registry],
  });

  readonly projectionLagEvents = new Gauge({
    name: 'ssa_audit_projection_lag_events',
    help: 'Committed events not yet folded into the ownership projections (measured after each projector run)',
    registers: [this.registry],
  });

  /** Set by the projector: observation time (ms) of the last event it folded. */
  lastProjectedEventAtMs: number | null = null;

  readonly projectionLastEventAgeSeconds = new Gauge({
    name: 'ssa_audit_projection_last_event_age_seconds',
    help: 'Age of the last event folded into the ownership projections (now minus its observation time)',
    registers: [this.registry],
    collect: () => {
      if (this.lastProjectedEventAtMs !== null) this.projectionLastEventAgeSeconds.set((Date.now() - this.lastProjectedEventAtMs) / 1000);
    },
  });

  readonly replayProgressPercent = new Gauge({
    name: 'ssa_audit_replay_progress_percent',
    help: 'Progress of the running (or last) projection replay, by scope',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'ssa_audit_' });
  }
}

/** Injection tokens of the shared singletons. */
export const METRICS = Symbol('METRICS');
export const LOGGER = Symbol('LOGGER');
