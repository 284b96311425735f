import { pino } from 'pino';
import type { KubeClient, Query } from './kube-client.js';
import { KubeError } from './kube.exception.js';
import { LeaseElector } from './lease-elector.js';

// Lease semantics against an in-memory Lease endpoint with optimistic concurrency (no I/O).

type Lease = { metadata: { name: string; namespace: string; resourceVersion: string }; spec: Record<string, unknown> };

function leaseServer() {
  let lease: Lease | undefined;
  let rv = 0;
  const client = {
    cluster: 'c',
    async json(_path: string, _q: Query, opts: { method?: string; body?: Lease } = {}) {
      const method = opts.method ?? 'GET';
      if (method === 'GET') {
        if (!lease) throw new KubeError('HTTP', 'not found', 404);
        return structuredClone(lease);
      }
      if (method === 'POST') {
        if (lease) throw new KubeError('HTTP', 'exists', 409);
      } else if (!lease || opts.body!.metadata.resourceVersion !== lease.metadata.resourceVersion) throw new KubeError('HTTP', 'conflict', 409);
      lease = { ...structuredClone(opts.body!), metadata: { ...opts.body!.metadata, resourceVersion: String(++rv) } };
      return lease;
    },
  };
  return {
    client: client as unknown as KubeClient,
    get holder() {
      return lease?.spec['holderIdentity'];
    },
    /** Someone else holds it, renewed `agoMs` ago. */
    heldBy(identity: string, agoMs: number) {
      lease = {
        metadata: { name: 'l', namespace: 'default', resourceVersion: String(++rv) },
        spec: { holderIdentity: identity, leaseDurationSeconds: 1, renewTime: new Date(Date.now() - agoMs).toISOString() },
      };
    },
  };
}

const silent = pino({ level: 'silent' });
const until = async (f: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!f() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(f()).toBe(true);
};

function elector(client: KubeClient, identity: string, events: string[]) {
  return new LeaseElector(client, { namespace: 'default', name: 'l', identity, durationMs: 1000, renewMs: 50 }, silent, {
    onStartedLeading: () => void events.push(`${identity} leads`),
    onStoppedLeading: () => void events.push(`${identity} stops`),
  });
}

describe('LeaseElector', () => {
  it('creates the lease when there is none, and exactly one of two candidates leads', async () => {
    const server = leaseServer();
    const events: string[] = [];
    const a = elector(server.client, 'a', events);
    const b = elector(server.client, 'b', events);
    a.start();
    b.start();
    await until(() => events.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toHaveLength(1);
    expect([a.isLeader, b.isLeader].filter(Boolean)).toHaveLength(1);
    expect(server.holder).toBe(a.isLeader ? 'a' : 'b');
    await a.stop();
    await b.stop();
  });

  it('waits while another holder renews, takes over once it expires', async () => {
    const server = leaseServer();
    server.heldBy('other', 0);
    const events: string[] = [];
    const a = elector(server.client, 'a', events);
    a.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(a.isLeader).toBe(false);
    server.heldBy('other', 5000); // stopped renewing long ago
    await until(() => a.isLeader);
    expect(server.holder).toBe('a');
    await a.stop();
  });

  it('a graceful stop hands the lease back at once', async () => {
    const server = leaseServer();
    const events: string[] = [];
    const a = elector(server.client, 'a', events);
    a.start();
    await until(() => a.isLeader);
    await a.stop(true);
    expect(server.holder).toBeNull();
    expect(events).toEqual(['a leads', 'a stops']);
    const b = elector(server.client, 'b', events);
    b.start();
    await until(() => b.isLeader, 500);
    await b.stop();
  });
});
