import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ClusterHealthBoard } from './cluster-health.js';

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

  readonly laneStuck = new Gauge({
    name: 'ssa_audit_lane_stuck',
    help: '1 while a queue lane retries a transient failure (the database or Redis away); its later jobs wait',
    labelNames: ['lane'] as const,
    registers: [this.registry],
  });

  readonly queueLost = new Counter({
    name: 'ssa_audit_queue_lost_total',
    help: 'Times the queue state was found lost (Redis restarted empty, flushed, or failed over) and healed',
    registers: [this.registry],
  });

  readonly deadLetters = new Counter({
    name: 'ssa_audit_dead_letters_total',
    help: 'Observations that could never be stored (a permanent error), recorded in the dead_letters table',
    registers: [this.registry],
  });

  readonly clusterDiscontinuities = new Counter({
    name: 'ssa_audit_cluster_discontinuities_total',
    help: 'Times a cluster went back in time or was replaced (another kube-system uid): every resource relisted with gap-fill',
    labelNames: ['cluster', 'reason'] as const,
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

  /** Objects of an ingest batch whose new events were folded in the batch's transaction, or left to the log walk. */
  readonly projectedAtAppend = new Counter({
    name: 'ssa_audit_projected_at_append_objects_total',
    help: 'Objects whose new events an ingest batch folded into the projections as it stored them (folded), or left to the projector (left)',
    labelNames: ['outcome'] as const,
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

  readonly eventStreamsOpen = new Gauge({
    name: 'ssa_audit_event_streams_open',
    help: 'Open /v1/events/stream connections of this process',
    registers: [this.registry],
  });

  /** Watch events received, by cluster, resource (`resource.group`) and type (rate() of it is events/s). */
  readonly watchEvents = new Counter({
    name: 'ssa_audit_watch_events_total',
    help: 'Watch events received, by cluster, resource and type',
    labelNames: ['cluster', 'resource', 'type'] as const,
    registers: [this.registry],
  });

  readonly watchRestarts = new Counter({
    name: 'ssa_audit_watch_restarts_total',
    help: 'Watch connections restarted, by reason (error, stalled, closed by the server)',
    labelNames: ['cluster', 'resource', 'reason'] as const,
    registers: [this.registry],
  });

  readonly watchRelists = new Counter({
    name: 'ssa_audit_watch_relists_total',
    help: 'Full lists, by reason (initial, gone = 410 after a watch gap)',
    labelNames: ['cluster', 'resource', 'reason'] as const,
    registers: [this.registry],
  });

  /** When each resource last had an event; read as an age at scrape time. */
  readonly lastWatchEventAt = new Map<string, { cluster: string; resource: string; at: number }>();

  readonly watchLastEventAge = new Gauge({
    name: 'ssa_audit_watch_last_event_age_seconds',
    help: 'Seconds since the last watch event (or bookmark) of each resource',
    labelNames: ['cluster', 'resource'] as const,
    registers: [this.registry],
    collect: () => {
      const now = Date.now();
      for (const { cluster, resource, at } of this.lastWatchEventAt.values()) this.watchLastEventAge.set({ cluster, resource }, (now - at) / 1000);
    },
  });

  readonly watchQueueDepth = new Gauge({
    name: 'ssa_audit_watch_queue_depth',
    help: 'Ingest jobs waiting, as last seen by the watcher (it stops reading above WATCH_MAX_QUEUE_DEPTH)',
    registers: [this.registry],
  });

  readonly watchObservationsEnqueued = new Counter({
    name: 'ssa_audit_watch_observations_enqueued_total',
    help: 'Observations handed to the ingest queue by the watcher',
    labelNames: ['cluster'] as const,
    registers: [this.registry],
  });

  readonly watchInitialListSeconds = new Gauge({
    name: 'ssa_audit_watch_initial_list_seconds',
    help: 'Time from start of watching until every resource was listed (or its resumed watch was open)',
    labelNames: ['cluster'] as const,
    registers: [this.registry],
  });

  readonly watcherLeader = new Gauge({
    name: 'ssa_audit_watcher_leader',
    help: '1 when this watcher holds the cluster lease (or leader election is off)',
    labelNames: ['cluster'] as const,
    registers: [this.registry],
  });

  readonly watchesActive = new Gauge({
    name: 'ssa_audit_watches_active',
    help: 'Resources being listed or watched',
    labelNames: ['cluster'] as const,
    registers: [this.registry],
  });

  /** Each watched cluster's health, published by the watcher (read by `/readyz` and the gauge below). */
  readonly clusters = new ClusterHealthBoard();

  readonly clusterBehind = new Gauge({
    name: 'ssa_audit_cluster_behind',
    help: "1 while a watched cluster's list/watch has been failing (unreachable, erroring) beyond a short grace: its answers are behind",
    labelNames: ['cluster'] as const,
    registers: [this.registry],
    collect: () => {
      for (const h of this.clusters.report()) this.clusterBehind.set({ cluster: h.cluster }, h.status === 'behind' ? 1 : 0);
    },
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'ssa_audit_' });
  }
}

/** Injection tokens of the shared singletons. */
export const METRICS = Symbol('METRICS');
export const LOGGER = Symbol('LOGGER');
