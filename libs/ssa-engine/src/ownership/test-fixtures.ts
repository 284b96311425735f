// Small hand-made snapshots for the ownership specs (imported by *.spec.ts only).
import { BUILTIN_SCHEMA, builtinTypeName } from '../schema/builtin-schema.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import type { Snapshot } from './snapshot.js';

export const CONFIGMAP: ResolvedType = BUILTIN_SCHEMA.type(builtinTypeName('v1', 'ConfigMap')!);
export const DEPLOYMENT: ResolvedType = BUILTIN_SCHEMA.type(builtinTypeName('apps/v1', 'Deployment')!);

/** A managedFields entry: `[manager, operation, time | undefined, fieldsV1, apiVersion?, subresource?]`. */
export type E = [string, 'Apply' | 'Update', string | undefined, object, string?, string?];

export function entry([manager, operation, time, fieldsV1, apiVersion, subresource]: E): object {
  return {
    manager,
    operation,
    apiVersion: apiVersion ?? 'v1',
    ...(time ? { time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1,
    ...(subresource ? { subresource } : {}),
  };
}

export function cm(data: Record<string, string>, entries: E[], labels?: Record<string, string>, annotations?: Record<string, string>): Snapshot {
  return {
    type: CONFIGMAP,
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'app',
        namespace: 'prod',
        ...(labels ? { labels } : {}),
        ...(annotations ? { annotations } : {}),
        ...(entries.length ? { managedFields: entries.map(entry) } : {}),
      },
      data,
    },
  };
}

export function deploy(spec: object, entries: E[]): Snapshot {
  return {
    type: DEPLOYMENT,
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', managedFields: entries.map((e) => entry([e[0], e[1], e[2], e[3], e[4] ?? 'apps/v1', e[5]])) },
      spec,
    },
  };
}

export const T1 = '2024-01-01T00:00:01Z';
export const T2 = '2024-01-01T00:00:02Z';
export const T3 = '2024-01-01T00:00:03Z';
