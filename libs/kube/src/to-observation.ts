import type { KubeObject, Observation, ObservationSource, WatchEventType } from '../../common/src/index.js';
import type { ApiResource } from './discovery.js';

/** Checks what the audit relies on before an object leaves libs/kube; undefined when it is unusable. */
export function asKubeObject(value: unknown): KubeObject | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const md = (value as { metadata?: unknown }).metadata as Record<string, unknown> | undefined;
  if (!md || typeof md !== 'object') return undefined;
  const str = (v: unknown) => typeof v === 'string' && v !== '';
  if (!str(md['uid']) || !str(md['name']) || !str(md['resourceVersion'])) return undefined;
  if (md['namespace'] !== undefined && typeof md['namespace'] !== 'string') return undefined;
  if (md['managedFields'] !== undefined && !Array.isArray(md['managedFields'])) return undefined;
  return value as KubeObject;
}

/** One observation of `object`; list items lack apiVersion/kind, so they are filled in from the resource. */
export function toObservation(cluster: string, r: ApiResource, type: WatchEventType, source: ObservationSource, object: KubeObject, observedAt = new Date()): Observation {
  const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`;
  return {
    cluster,
    resource: { group: r.group, version: r.version, resource: r.resource, kind: r.kind },
    type,
    source,
    observedAt: observedAt.toISOString(),
    object: object.apiVersion && object.kind ? object : { ...object, apiVersion: object.apiVersion ?? apiVersion, kind: object.kind ?? r.kind },
  };
}
