import { SandboxWriter } from '../../libs/testing/src/index.js';

// The writes a fault case injects its fault into: ConfigMaps of one namespace changed through the
// sandbox's HTTP API as several kinds of clients would (an Update writer of data keys, a
// server-side applier of labels), plus deletions and creations.

export const NAMESPACE = 'faults';
export const CM = `/api/v1/namespaces/${NAMESPACE}/configmaps`;

/** Every object the test ever created (uid → name), to tell which ones the API must show as deleted. */
export type Created = Map<string, string>;

export interface ChurnOptions {
  /** Writes per second over all lanes (default 60). */
  readonly ratePerSec?: number;
  /** Concurrent writers (default 4); one object is never written by two at once. */
  readonly lanes?: number;
}

export interface ChurnStats {
  readonly writes: number;
  readonly failed: number;
  readonly byKind: Readonly<Record<ChurnKind, number>>;
  /** `Date.now()` after the last successful write (the reference for "time until correct"). */
  readonly lastWriteAt: number;
}

export interface Churn {
  readonly stats: () => ChurnStats;
  /** Stops after the writes in flight; resolves with the totals. */
  stop(): Promise<ChurnStats>;
}

type ChurnKind = 'data' | 'label' | 'delete' | 'create';

const configMap = (name: string, data: Record<string, string>, labels: Record<string, string> = { app: 'faults' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: NAMESPACE, labels },
  data,
});

/** Creates the namespace (if missing) and `count` ConfigMaps `cm-0…`; returns their names. */
export async function seedConfigMaps(writer: SandboxWriter, created: Created, count: number, prefix = 'cm', concurrency = 8): Promise<string[]> {
  await writer.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }).catch((e: Error) => {
    if (!/409|AlreadyExists/.test(e.message)) throw e;
  });
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const w = await writer.create(CM, configMap(name, { a: '0', b: '0' }), 'seed');
        created.set(w.uid, name);
      }
    }),
  );
  return names;
}

/**
 * Starts writing to the live objects `names` (a shared list: creations add, deletions remove) until
 * `stop()`: 50 % data patches (merge patch, manager `churn-data`), 25 % label applies (apply patch,
 * manager `churn-labeler`), 10 % deletions, 15 % creations. Failed writes (the cluster being
 * replaced, a 404 after a replacement) are counted and skipped.
 */
export function startChurn(writer: SandboxWriter, created: Created, names: string[], options: ChurnOptions = {}): Churn {
  const rate = options.ratePerSec ?? 60;
  const lanes = options.lanes ?? 4;
  const busy = new Set<string>();
  const byKind: Record<ChurnKind, number> = { data: 0, label: 0, delete: 0, create: 0 };
  let writes = 0;
  let failed = 0;
  let lastWriteAt = Date.now();
  let stopped = false;
  let serial = 0;
  const pick = (): string | undefined => {
    for (let tries = 0; tries < 10 && names.length > 0; tries++) {
      const n = names[Math.floor(Math.random() * names.length)]!;
      if (!busy.has(n)) return n;
    }
    return undefined;
  };
  const one = async (): Promise<void> => {
    const r = Math.random();
    const kind: ChurnKind = r < 0.5 ? 'data' : r < 0.75 ? 'label' : r < 0.85 ? 'delete' : 'create';
    const name = kind === 'create' ? `churn-${process.pid}-${serial++}` : pick();
    if (name === undefined) return;
    busy.add(name);
    try {
      if (kind === 'data') {
        const key = ['a', 'b', 'c'][Math.floor(Math.random() * 3)]!;
        await writer.patch(CM, name, { data: { [key]: String(serial++) } }, 'churn-data');
      } else if (kind === 'label') {
        await writer.apply(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { tier: `t${serial++ % 7}` } } }, 'churn-labeler', true);
      } else if (kind === 'delete') {
        names.splice(names.indexOf(name), 1);
        await writer.delete(CM, name);
      } else {
        const w = await writer.create(CM, configMap(name, { a: String(serial++) }), 'churn-create');
        created.set(w.uid, name);
        names.push(name);
      }
      writes++;
      byKind[kind]++;
      lastWriteAt = Date.now();
    } catch {
      failed++;
    } finally {
      busy.delete(name);
    }
  };
  const every = (1000 * lanes) / rate;
  const loops = Array.from({ length: lanes }, async () => {
    while (!stopped) {
      const t = Date.now();
      await one();
      const wait = every - (Date.now() - t);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  });
  const stats = (): ChurnStats => ({ writes, failed, byKind: { ...byKind }, lastWriteAt });
  return {
    stats,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return stats();
    },
  };
}
