import type { KubeObject } from '../../ssa-engine/src/index.js';
import type { PrinterColumn, ResourceType } from './resource-type.js';

type Obj = Record<string, any>;

interface Column {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'date';
  readonly format?: string;
  readonly priority?: number;
  readonly cell: (o: Obj, now: Date) => string | number;
}

/** kubectl's short human durations (`5s`, `3m20s`, `2d4h`), as the apiserver's printers write ages. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

const name: Column = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata?.name ?? '' };
const age: Column = {
  name: 'Age',
  type: 'string',
  cell: (o, now) => (o.metadata?.creationTimestamp ? humanDuration(now.getTime() - Date.parse(o.metadata.creationTimestamp)) : '<unknown>'),
};
const int = (n: string, f: (o: Obj) => unknown, priority?: number): Column => ({ name: n, type: 'integer', cell: (o) => Number(f(o) ?? 0), ...(priority ? { priority } : {}) });
const str = (n: string, f: (o: Obj) => unknown, priority?: number): Column => ({ name: n, type: 'string', cell: (o) => String(f(o) ?? '<none>'), ...(priority ? { priority } : {}) });
const count = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v).length : 0);
const ready = (o: Obj) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`;
const containers = (o: Obj) => (o.spec?.template?.spec?.containers ?? []) as Obj[];

function ports(o: Obj): string {
  const p = (o.spec?.ports ?? []) as Obj[];
  return p.length ? p.map((x) => `${x.port}${x.nodePort ? `:${x.nodePort}` : ''}/${x.protocol ?? 'TCP'}`).join(',') : '<none>';
}

/** The printer columns of the built-in kinds (the ones `kubectl get` shows), Name and Age otherwise. */
const COLUMNS: Record<string, Column[]> = {
  'v1/Pod': [
    name,
    str('Ready', (o) => `0/${(o.spec?.containers ?? []).length}`),
    str('Status', (o) => o.status?.phase ?? 'Pending'),
    int('Restarts', () => 0),
    age,
    str('IP', (o) => o.status?.podIP, 1),
    str('Node', (o) => o.spec?.nodeName, 1),
  ],
  'v1/Event': [
    {
      name: 'Last Seen',
      type: 'string',
      cell: (o, now) => {
        const t = o.lastTimestamp ?? o.eventTime ?? o.metadata?.creationTimestamp;
        return t ? humanDuration(now.getTime() - Date.parse(t)) : '<unknown>';
      },
    },
    str('Type', (o) => o.type ?? ''),
    str('Reason', (o) => o.reason ?? ''),
    str('Object', (o) => `${String(o.involvedObject?.kind ?? '').toLowerCase()}/${o.involvedObject?.name ?? ''}`),
    str('Message', (o) => o.message ?? ''),
  ],
  'v1/Namespace': [name, str('Status', (o) => o.status?.phase ?? 'Active'), age],
  'v1/ConfigMap': [name, int('Data', (o) => count(o.data) + count(o.binaryData)), age],
  'v1/Secret': [name, str('Type', (o) => o.type), int('Data', (o) => count(o.data)), age],
  'v1/ServiceAccount': [name, int('Secrets', (o) => (o.secrets ?? []).length), age],
  'v1/Service': [
    name,
    str('Type', (o) => o.spec?.type),
    str('Cluster-IP', (o) => o.spec?.clusterIP),
    str('External-IP', (o) => (o.spec?.externalIPs ?? []).join(',') || '<none>'),
    str('Port(s)', ports),
    age,
    str('Selector', (o) => Object.entries(o.spec?.selector ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>', 1),
  ],
  'apps/v1/Deployment': [
    name,
    str('Ready', ready),
    int('Up-to-date', (o) => o.status?.updatedReplicas),
    int('Available', (o) => o.status?.availableReplicas),
    age,
    str('Containers', (o) => containers(o).map((c) => c.name).join(','), 1),
    str('Images', (o) => containers(o).map((c) => c.image).join(','), 1),
  ],
  'apps/v1/ReplicaSet': [name, int('Desired', (o) => o.spec?.replicas), int('Current', (o) => o.status?.replicas), int('Ready', (o) => o.status?.readyReplicas), age],
  'apps/v1/StatefulSet': [name, str('Ready', ready), age],
  'apps/v1/DaemonSet': [
    name,
    int('Desired', (o) => o.status?.desiredNumberScheduled),
    int('Current', (o) => o.status?.currentNumberScheduled),
    int('Ready', (o) => o.status?.numberReady),
    int('Up-to-date', (o) => o.status?.updatedNumberScheduled),
    int('Available', (o) => o.status?.numberAvailable),
    str('Node Selector', (o) => Object.entries(o.spec?.template?.spec?.nodeSelector ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>'),
    age,
  ],
  'batch/v1/Job': [name, str('Status', () => 'Running'), str('Completions', (o) => `${o.status?.succeeded ?? 0}/${o.spec?.completions ?? 1}`), str('Duration', () => ''), age],
  'batch/v1/CronJob': [
    name,
    str('Schedule', (o) => o.spec?.schedule),
    str('Timezone', (o) => o.spec?.timeZone),
    str('Suspend', (o) => (o.spec?.suspend ? 'True' : 'False')),
    int('Active', (o) => (o.status?.active ?? []).length),
    str('Last Schedule', () => '<none>'),
    age,
  ],
  'coordination.k8s.io/v1/Lease': [name, str('Holder', (o) => o.spec?.holderIdentity ?? ''), age],
  'apiextensions.k8s.io/v1/CustomResourceDefinition': [name, { name: 'Created At', type: 'date', cell: (o) => o.metadata?.creationTimestamp ?? '' }],
};

/** A CRD printer column's JSONPath, in the simple `.a.b[0].c` form CRDs use. */
function jsonPathValue(o: Obj, path: string): unknown {
  let v: unknown = o;
  for (const part of path.replace(/^\{?\.?/, '').replace(/\}$/, '').split('.').filter((p) => p !== '')) {
    const m = /^([^[\]]+)(?:\[(\d+)\])?$/.exec(part);
    if (!m || v === null || typeof v !== 'object') return undefined;
    v = (v as Obj)[m[1]!];
    if (m[2] !== undefined) v = Array.isArray(v) ? v[Number(m[2])] : undefined;
  }
  return v;
}

function printerColumn(c: PrinterColumn): Column {
  return {
    name: c.name,
    type: c.type === 'integer' || c.type === 'number' ? 'integer' : c.type === 'date' ? 'date' : 'string',
    ...(c.priority ? { priority: c.priority } : {}),
    cell: (o, now) => {
      const v = jsonPathValue(o, c.jsonPath);
      if (v === undefined || v === null) return '';
      if (c.type === 'date' && typeof v === 'string') return humanDuration(now.getTime() - Date.parse(v));
      return typeof v === 'object' ? JSON.stringify(v) : (v as string | number);
    },
  };
}

function columnsFor(rt: ResourceType): Column[] {
  if (rt.printerColumns?.length) {
    // Name, then exactly the CRD's columns (an Age column is the CRD author's to declare).
    return [name, ...rt.printerColumns.map(printerColumn)];
  }
  return COLUMNS[`${rt.apiVersion}/${rt.kind}`] ?? [name, age];
}

/** The `meta.k8s.io` Table (`kubectl get`'s format) of some objects; rows carry their metadata. */
export function toTable(rt: ResourceType, objects: readonly KubeObject[], apiVersion: string, metadata: Obj, now = new Date()): Obj {
  const cols = columnsFor(rt);
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: cols.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: '', priority: c.priority ?? 0 })),
    rows: objects.map((o) => ({
      cells: cols.map((c) => c.cell(o as Obj, now)),
      object: { kind: 'PartialObjectMetadata', apiVersion, metadata: (o as Obj)['metadata'] },
    })),
  };
}

/** The Table version a client asks for in its Accept header (`meta.k8s.io/v1` or `v1beta1`), if any. */
export function tableVersion(accept: string | undefined): string | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map((x) => x.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=') as [string, string]));
    if (type !== 'application/json' || p['as'] !== 'Table' || p['g'] !== 'meta.k8s.io') {
      if (type === 'application/json' && !p['as']) return undefined;
      continue;
    }
    if (p['v'] === 'v1' || p['v'] === 'v1beta1') return `meta.k8s.io/${p['v']}`;
  }
  return undefined;
}
