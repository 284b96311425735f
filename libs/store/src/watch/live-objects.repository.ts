import type { DataSource } from 'typeorm';

/** An object the store holds as live for a resource (what a relist is diffed against). */
export interface LiveObject {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
}

/** Read side for the watcher: which objects of a resource the store believes exist. */
export class LiveObjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async liveObjects(cluster: string, group: string, resource: string): Promise<LiveObject[]> {
    return this.dataSource.query(
      `SELECT o.uid, o.name, o.namespace FROM objects o JOIN clusters c ON c.id = o.cluster_id
       WHERE c.name = $1 AND o.api_group = $2 AND o.resource = $3 AND o.deleted_at IS NULL`,
      [cluster, group, resource],
    );
  }
}
