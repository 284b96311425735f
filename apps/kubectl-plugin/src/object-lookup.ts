import type { ObjectListItem } from '../../../libs/audit/src/index.js';
import { notFound, usageError } from './plugin.error.js';

/**
 * The one tracked object among the service's matches for a kind, namespace and name: the live one
 * (a deleted one only when nothing live matches: names are reused after delete), in `cluster` when given.
 * Several clusters with such an object need `--cluster`.
 */
export function pickObject(items: readonly ObjectListItem[], what: string, cluster?: string): ObjectListItem {
  const inCluster = cluster ? items.filter((i) => i.cluster === cluster) : items;
  if (inCluster.length === 0) throw notFound(`${what} is not tracked by the ssa-audit service${cluster ? ` in cluster ${cluster}` : ''}`);
  const clusters = [...new Set(inCluster.map((i) => i.cluster))];
  if (clusters.length > 1) throw usageError(`${what} is tracked in several clusters (${clusters.join(', ')}): choose one with --cluster`);
  const live = inCluster.filter((i) => !i.deleted);
  const pool = live.length > 0 ? live : inCluster;
  // The most recently seen one.
  return [...pool].sort((a, b) => (a.lastAt < b.lastAt ? 1 : -1))[0]!;
}
