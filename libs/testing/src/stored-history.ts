import type { DataSource } from 'typeorm';

/** One stored event of an object, as the tests compare them. */
export interface StoredStep {
  readonly type: string;
  readonly resourceVersion: string;
  readonly source: string;
}

/** Every stored event per object uid of a cluster, in log order. */
export async function storedHistory(ds: DataSource, cluster: string): Promise<Map<string, StoredStep[]>> {
  const rows: { uid: string; type: string; rv: string; source: string }[] = await ds.query(
    `SELECT o.uid, e.event_type AS type, e.resource_version AS rv, e.source
     FROM events e JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id
     WHERE c.name = $1 ORDER BY e.seq`,
    [cluster],
  );
  const out = new Map<string, StoredStep[]>();
  for (const r of rows) {
    const list = out.get(r.uid) ?? [];
    list.push({ type: r.type, resourceVersion: r.rv, source: r.source });
    out.set(r.uid, list);
  }
  return out;
}
