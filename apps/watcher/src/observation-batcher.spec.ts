import { pino } from 'pino';
import type { Observation } from '../../../libs/common/src/index.js';
import type { ApiResource } from '../../../libs/kube/src/index.js';
import { MemoryWatchPositionStore } from '../../../libs/queue/src/index.js';
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

function ports(overrides: Partial<BatcherPorts> = {}) {
  const log: string[] = [];
  const positions = new MemoryWatchPositionStore();
  const save = positions.save.bind(positions);
  positions.save = async (cluster, p) => {
    log.push(`save ${[...p.values()].join(',')}`);
    await save(cluster, p);
  };
  const p: BatcherPorts = {
    enqueue: async (o) => {
      log.push(`enqueue ${o.map((x) => x.object.metadata.resourceVersion).join(',')}`);
    },
    queueDepth: async () => 0,
    positions,
    ...overrides,
  };
  return { p, log, positions };
}

describe('ObservationBatcher', () => {
  it('enqueues at the batch size and saves the position only after the enqueue', async () => {
    const { p, log, positions } = ports();
    const b = new ObservationBatcher('c', { batchSize: 2, batchDelayMs: 10_000, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent);
    await b.push(resource, [obs(1)], '1');
    expect(log).toEqual([]);
    await b.push(resource, [obs(2)], '2');
    await b.flush();
    expect(log).toEqual(['enqueue 1,2', 'save 2']);
    expect(await positions.load('c')).toEqual(new Map([['configmaps', '2']]));
    await b.close();
  });

  it('flushes after the delay, bookmarks (positions without observations) included', async () => {
    const { p, log } = ports();
    const b = new ObservationBatcher('c', { batchSize: 100, batchDelayMs: 20, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent);
    await b.push(resource, [], '5');
    await new Promise((r) => setTimeout(r, 80));
    expect(log).toEqual(['save 5']);
    await b.close();
  });

  it('retries a failed enqueue and never saves a position it does not cover', async () => {
    let fail = 2;
    const { p, log } = ports();
    const inner = p.enqueue;
    const b = new ObservationBatcher(
      'c',
      { batchSize: 1, batchDelayMs: 10, maxQueueDepth: 10, settleTimeoutMs: 1000 },
      { ...p, enqueue: async (o) => (fail-- > 0 ? Promise.reject(new Error('redis down')) : inner(o)) },
      silent,
    );
    await b.push(resource, [obs(1)], '1');
    await b.flush();
    expect(log).toEqual(['enqueue 1', 'save 1']);
    await b.close();
  });

  it('waits while the queue is deeper than the limit (backpressure)', async () => {
    let depth = 50;
    const { p, log } = ports({ queueDepth: async () => depth });
    const b = new ObservationBatcher('c', { batchSize: 1, batchDelayMs: 10, maxQueueDepth: 10, settleTimeoutMs: 1000 }, p, silent);
    const first = b.push(resource, [obs(1)], '1');
    const second = b.push(resource, [obs(2)], '2');
    await new Promise((r) => setTimeout(r, 300));
    expect(log).toEqual([]);
    depth = 0;
    await Promise.all([first, second, b.flush()]);
    expect(log).toEqual(['enqueue 1', 'save 1', 'enqueue 2', 'save 2']);
    await b.close();
  });
});
