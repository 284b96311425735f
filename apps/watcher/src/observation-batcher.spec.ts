import { pino } from 'pino';
import type { Observation } from '../../../libs/common/src/index.js';
import type { ApiResource } from '../../../libs/kube/src/index.js';
import { ObservationBatcher, type BatcherPorts } from './observation-batcher.js';

const resource: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const obs = (rv: number): Observation => ({
  cluster: 'c',
  resource,
  type: 'MODIFIED',
  source: 'watch',
  observedAt: '2026-11-21T10:00:00.000Z',
  object: { metadata: { uid: 'u', name: 'n', resourceVersion: String(rv) } },
});
const silent = pino({ level: 'silent' });
const checkpoints = { clusterUid: 'k', firstFlush: 7n, everyMs: 0 };

/** Each enqueue as "rvs | flush:resource=position,…" (the checkpoint travels with the observations it ends). */
function ports(overrides: Partial<BatcherPorts> = {}) {
  const log: string[] = [];
  const p: BatcherPorts = {
    enqueue: async (o, cp) => {
      const positions = cp ? ` | ${cp.flush}:${Object.entries(cp.positions).map(([k, v]) => `${k}=${v}`).join(',')}` : '';
      log.push(`${o.map((x) => x.object.metadata.resourceVersion).join(',')}${positions}`);
    },
    queueDepth: async () => 0,
    ...overrides,
  };
  return { p, log };
}

describe('ObservationBatcher', () => {
  it('enqueues at the batch size with the checkpoint of the positions it covers', async () => {
    const { p, log } = ports();
    const b = new ObservationBatcher('c', { batchSize: 2, batchDelayMs: 10_000, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent, checkpoints);
    await b.push(resource, [obs(1)], '1');
    expect(log).toEqual([]);
    await b.push(resource, [obs(2)], '2');
    await b.flush();
    expect(log).toEqual(['1,2 | 7:configmaps=2']);
    await b.close();
  });

  it('enqueues when the objects buffered reach the byte bound, before the batch size', async () => {
    const { p, log } = ports();
    const b = new ObservationBatcher('c', { batchSize: 100, batchBytes: 1000, batchDelayMs: 10_000, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent, checkpoints);
    await b.push(resource, [obs(1)], undefined, 600);
    expect(log).toEqual([]);
    await b.push(resource, [obs(2)], '2', 600);
    await b.push(resource, [obs(3)], '3', 100);
    // The count starts again after a flush: 100 bytes wait for the delay (or a flush).
    await new Promise((r) => setTimeout(r, 30));
    expect(log).toEqual(['1,2 | 7:configmaps=2']);
    await b.flush();
    expect(log).toEqual(['1,2 | 7:configmaps=2', '3 | 8:configmaps=3']);
    await b.close();
  });

  it('flushes after the delay, bookmarks (positions without observations) included', async () => {
    const { p, log } = ports();
    const b = new ObservationBatcher('c', { batchSize: 100, batchDelayMs: 20, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent, checkpoints);
    await b.push(resource, [], '5');
    await new Promise((r) => setTimeout(r, 80));
    expect(log).toEqual([' | 7:configmaps=5']);
    await b.close();
  });

  it('sends at most one checkpoint per interval; the positions in between go with the next one, and close sends the last', async () => {
    const { p, log } = ports();
    const b = new ObservationBatcher('c', { batchSize: 1, batchDelayMs: 10, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent, { ...checkpoints, everyMs: 60_000 });
    await b.push(resource, [obs(1)], '1');
    await b.push(resource, [obs(2)], '2');
    await b.push(resource, [obs(3)], '3');
    await b.flush();
    b.forget('crds');
    await b.close();
    expect(log).toEqual(['1 | 7:configmaps=1', '2', '3', ' | 8:configmaps=3,crds=null']);
  });

  it('retries a failed enqueue with the same checkpoint', async () => {
    let fail = 2;
    const { p, log } = ports();
    const inner = p.enqueue;
    const b = new ObservationBatcher(
      'c',
      { batchSize: 1, batchDelayMs: 10, maxQueueDepth: 10, settleTimeoutMs: 1000 },
      { ...p, enqueue: async (o, cp) => (fail-- > 0 ? Promise.reject(new Error('redis down')) : inner(o, cp)) },
      silent,
      checkpoints,
    );
    await b.push(resource, [obs(1)], '1');
    await b.flush();
    expect(log).toEqual(['1 | 7:configmaps=1']);
    await b.close();
  });

  it('waits while the queue is deeper than the limit (backpressure)', async () => {
    let depth = 50;
    const { p, log } = ports({ queueDepth: async () => depth });
    const b = new ObservationBatcher('c', { batchSize: 1, batchDelayMs: 10, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent, checkpoints);
    const first = b.push(resource, [obs(1)], '1');
    const second = b.push(resource, [obs(2)], '2');
    await new Promise((r) => setTimeout(r, 300));
    expect(log).toEqual([]);
    depth = 0;
    await Promise.all([first, second, b.flush()]);
    expect(log).toEqual(['1 | 7:configmaps=1', '2 | 8:configmaps=2']);
    await b.close();
  });
});
