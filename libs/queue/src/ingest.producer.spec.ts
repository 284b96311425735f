import { createHmac, createSecretKey } from 'node:crypto';
import { loadConfig } from '../../config/src/index.js';
import { deploymentObservation, secretObservation } from '../../testing/src/index.js';
import { IngestProducer } from './ingest.producer.js';
import { InvalidJobPayloadError } from './job-payload.schema.js';
import { shardOf } from './job-id.util.js';
import type { QueueDriver } from './queue-driver.types.js';

const KEY = 'base64:' + Buffer.alloc(32, 7).toString('base64');
const config = loadConfig({ INGEST_SHARDS: '3', INGEST_BATCH_SIZE: '4', SENSITIVE_HASH_KEY: KEY });
const hashKey = createSecretKey(Buffer.alloc(32, 7));
const producer = new IngestProducer({} as QueueDriver, config.queue, { sensitiveKinds: config.capture.sensitiveKinds, hashKey });

describe('IngestProducer.build', () => {
  const observations = Array.from({ length: 20 }, (_, i) => deploymentObservation({ uid: `u-${i % 5}`, resourceVersion: String(i), observedAt: '2026-11-21T12:00:00Z' }));

  it('keeps every object in one shard, in order, in batches of at most INGEST_BATCH_SIZE', () => {
    const jobs = producer.build(observations);
    for (const j of jobs) {
      const obs = (j.data as { observations: typeof observations }).observations;
      expect(obs.length).toBeLessThanOrEqual(4);
      for (const o of obs) expect(shardOf(o.cluster, o.object.metadata.uid, 3)).toBe(j.shard);
    }
    const perObject = new Map<string, number[]>();
    for (const j of jobs) for (const o of (j.data as { observations: typeof observations }).observations) {
      perObject.set(o.object.metadata.uid, [...(perObject.get(o.object.metadata.uid) ?? []), Number(o.object.metadata.resourceVersion)]);
    }
    for (const rvs of perObject.values()) expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
  });

  it('closes a job before INGEST_BATCH_BYTES of observations; one larger alone gets a job of its own', () => {
    const small = loadConfig({ INGEST_SHARDS: '1', INGEST_BATCH_SIZE: '500', INGEST_BATCH_BYTES: '65536', SENSITIVE_HASH_KEY: KEY });
    const bounded = new IngestProducer({} as QueueDriver, small.queue, { sensitiveKinds: small.capture.sensitiveKinds, hashKey });
    // Dashboards in ConfigMaps: 20 of 10 KB, one of 100 KB, 20 more of 10 KB.
    const configMap = (i: number, bytes: number) => {
      const o = deploymentObservation({ uid: `cm-${i}`, resourceVersion: '1', observedAt: '2026-11-21T12:00:00Z' });
      return { ...o, object: { ...o.object, spec: { dashboard: 'x'.repeat(bytes) } } };
    };
    const list = [...Array.from({ length: 20 }, (_, i) => configMap(i, 10_000)), configMap(20, 100_000), ...Array.from({ length: 20 }, (_, i) => configMap(21 + i, 10_000))];
    const jobs = bounded.build(list);
    // Summed per observation, as the producer measures them (the array's commas and brackets aside).
    const sizes = jobs.map((j) => (j.data as { observations: unknown[] }).observations.reduce((n: number, o) => n + Buffer.byteLength(JSON.stringify(o)), 0));
    const counts = jobs.map((j) => (j.data as { observations: unknown[] }).observations.length);
    // Every observation once, in order; each job under the bound but the one holding the large observation alone.
    expect(jobs.flatMap((j) => (j.data as { observations: typeof list }).observations.map((o) => o.object.metadata.uid))).toEqual(list.map((o) => o.object.metadata.uid));
    expect(counts).toContain(1);
    jobs.forEach((_, k) => expect(counts[k] === 1 || sizes[k]! <= 65536).toBe(true));
    expect(jobs.length).toBeGreaterThanOrEqual(1 + Math.ceil((40 * 10_000) / 65536));
  });

  it('derives job ids from content (the same observations give the same ids)', () => {
    expect(producer.build(observations).map((j) => j.id)).toEqual(producer.build(structuredClone(observations)).map((j) => j.id));
    expect(producer.build(observations)[0]!.id).toMatch(/^ingest-\d-[0-9a-f]{32}$/);
  });

  it('redacts Secret values before they reach the queue', () => {
    const [job] = producer.build([secretObservation('s-1', '1', 'p4ssw0rd-xyz')]);
    expect(JSON.stringify(job!.data)).not.toContain('p4ssw0rd-xyz');
    expect(JSON.stringify(job!.data)).not.toContain(Buffer.from('p4ssw0rd-xyz').toString('base64'));
    // Keyed with the deployment's key (the one the store uses again before the database).
    const data = (job!.data as { observations: { object: { data: Record<string, string> } }[] }).observations[0]!.object.data;
    for (const v of Object.values(data)) expect(v).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(Object.values(data)).toContain(`hmac-sha256:${createHmac('sha256', hashKey).update(JSON.stringify(Buffer.from('p4ssw0rd-xyz').toString('base64'))).digest('hex')}`);
  });

  it('rejects malformed observations with the path of each problem', () => {
    const bad = { ...observations[0]!, observedAt: 'yesterday', object: { metadata: { name: 'x' } } };
    expect(() => producer.build([bad as never])).toThrow(InvalidJobPayloadError);
    expect(() => producer.build([bad as never])).toThrow(/observations\.0\.observedAt.*observations\.0\.object\.metadata\.uid/s);
  });
});
