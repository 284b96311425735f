import type { Logger } from 'pino';
import { sleep } from './backoff.js';
import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

export interface LeaseOptions {
  readonly namespace: string;
  readonly name: string;
  /** This process's identity (unique among the replicas). */
  readonly identity: string;
  readonly durationMs: number;
  /** How often the holder renews, and how often a candidate tries. */
  readonly renewMs: number;
}

interface Lease {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: { holderIdentity?: string | null; leaseDurationSeconds?: number; renewTime?: string | null; acquireTime?: string | null; leaseTransitions?: number };
}

/**
 * Leader election on a `coordination.k8s.io/v1` Lease, as client-go does it: the holder renews,
 * a candidate takes a lease whose renewTime is older than its duration, and every write carries the
 * lease's resourceVersion so two candidates can never both win.
 */
export class LeaseElector {
  private readonly abort = new AbortController();
  private leading = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly options: LeaseOptions,
    private readonly logger: Logger,
    private readonly callbacks: { onStartedLeading(): void | Promise<void>; onStoppedLeading(): void | Promise<void> },
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops campaigning; with `release` the lease is handed back at once (a graceful shutdown), else it expires. */
  async stop(release = true): Promise<void> {
    this.abort.abort();
    await this.loop;
    if (this.leading) {
      this.leading = false;
      await this.callbacks.onStoppedLeading();
      if (release) await this.release().catch((e: unknown) => this.logger.warn({ err: e }, 'lease release failed'));
    }
  }

  private get path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.options.namespace)}/leases`;
  }

  private async run(): Promise<void> {
    let lastRenew = 0;
    while (!this.abort.signal.aborted) {
      let ok = false;
      try {
        ok = await this.tryAcquireOrRenew();
      } catch (e) {
        this.logger.warn({ err: e, lease: this.options.name }, 'lease request failed');
      }
      if (ok) lastRenew = Date.now();
      if (ok && !this.leading) {
        this.leading = true;
        this.logger.info({ lease: this.options.name, identity: this.options.identity }, 'leading');
        await this.callbacks.onStartedLeading();
      } else if (!ok && this.leading && Date.now() - lastRenew > this.options.durationMs * 0.8) {
        // Could not renew in time: someone else may hold it now. Stop before the lease runs out.
        this.leading = false;
        this.logger.warn({ lease: this.options.name }, 'lost the lease');
        await this.callbacks.onStoppedLeading();
      }
      await sleep(this.options.renewMs, this.abort.signal);
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const spec = (prev?: Lease['spec']) => ({
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.options.durationMs / 1000)),
      acquireTime: prev?.holderIdentity === this.options.identity && prev.acquireTime ? prev.acquireTime : micro(now),
      renewTime: micro(now),
      leaseTransitions: (prev?.leaseTransitions ?? 0) + (prev?.holderIdentity === this.options.identity ? 0 : 1),
    });
    let lease: Lease;
    try {
      lease = await this.client.json<Lease>(`${this.path}/${encodeURIComponent(this.options.name)}`);
    } catch (e) {
      if (!(e instanceof KubeError && e.status === 404)) throw e;
      return this.write('POST', this.path, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.options.name, namespace: this.options.namespace }, spec: spec() });
    }
    const s = lease.spec ?? {};
    const mine = s.holderIdentity === this.options.identity;
    const renewed = s.renewTime ? Date.parse(s.renewTime) : 0;
    // The holder's own duration decides when its lease runs out.
    const expired = !s.holderIdentity || now.getTime() - renewed > (s.leaseDurationSeconds ?? 0) * 1000;
    if (!mine && !expired) return false;
    return this.write('PUT', `${this.path}/${encodeURIComponent(this.options.name)}`, { ...lease, spec: spec(s) });
  }

  private async write(method: 'POST' | 'PUT', path: string, body: Lease & Record<string, unknown>): Promise<boolean> {
    try {
      await this.client.json(path, {}, { method, body });
      return true;
    } catch (e) {
      if (e instanceof KubeError && (e.status === 409 || e.status === 422)) return false; // someone else won the race
      throw e;
    }
  }

  private async release(): Promise<void> {
    const path = `${this.path}/${encodeURIComponent(this.options.name)}`;
    const lease = await this.client.json<Lease>(path);
    if (lease.spec?.holderIdentity !== this.options.identity) return;
    await this.write('PUT', path, { ...lease, spec: { ...lease.spec, holderIdentity: null, renewTime: null } });
  }
}

/** Lease times are MicroTime: RFC 3339 with microseconds. */
function micro(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
