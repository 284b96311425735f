import { NO_PAINT } from './paint.js';
import type { FieldAnswer, Owner, OwnershipNode } from './service-api.types.js';
import { findNode, formatWhoOwns } from './who-owns.format.js';
const BUNDLED = { source: 'bundled', typeName: 'io.k8s.api.core.v1.Pod', digest: '0000000000000000' } as const;

const kcsa: Owner = { manager: 'kubectl-client-side-apply', operation: 'Update', subresource: '', apiVersion: 'v1', since: '2026-11-21T10:00:00Z', sinceSeq: '1', sinceFirstObservation: false };
const flux: Owner = { manager: 'flux-controller', operation: 'Apply', subresource: '', apiVersion: 'v1', since: '2026-11-21T09:00:00Z', sinceSeq: '2', sinceFirstObservation: false };
/** `.metadata.labels` → `f:metadata.f:labels` */
const fieldsV1 = (path: string) => path.replace(/\.([^.]+)/g, '.f:$1').slice(1);
const node = (path: string, segment: string, owners: OwnershipNode['owners'], children: OwnershipNode[] = []): OwnershipNode => ({
  path,
  segment,
  fieldsV1Path: fieldsV1(path),
  owned: owners.length > 0,
  owners,
  children,
});
const fieldAnswer = (path: string, value: unknown, owners: Owner[]): FieldAnswer => ({
  schema: BUNDLED,
  notes: [],
  path,
  fieldsV1Path: fieldsV1(path),
  present: true,
  value,
  owners,
  effectiveOwners: [],
  deleted: false,
  asOf: { seq: '3', at: '2026-11-21T10:00:02Z' },
});
const TREE = node('', '', [], [
  node('.metadata', 'metadata', [], [
    node('.metadata.labels', 'labels', [], [node('.metadata.labels.app', 'app', [flux]), node('.metadata.labels.test-data', 'test-data', [kcsa])]),
  ]),
]);

describe('formatWhoOwns', () => {
  it('prints a leaf field with its value and owners (local time)', () => {
    const field = fieldAnswer('.metadata.labels.test-data', 'true', [kcsa]);
    expect(formatWhoOwns('configmap/app-config -n shop', field, findNode(TREE, field.path), NO_PAINT)).toBe(
      'configmap/app-config -n shop  as of 2026-11-21 10:00:02 +00:00 (event 3)\n.metadata.labels.test-data = "true"  kubectl-client-side-apply (Update) since 2026-11-21 10:00:00 +00:00\n',
    );
  });

  it('draws the owned fields under a path as a tree', () => {
    const field = fieldAnswer('.metadata.labels', { app: 'shop' }, []);
    expect(formatWhoOwns('cm/x', field, findNode(TREE, '.metadata.labels'), NO_PAINT)).toBe(
      [
        'cm/x  as of 2026-11-21 10:00:02 +00:00 (event 3)',
        '.metadata.labels = {…}  owned by nobody',
        '├── app  flux-controller (Apply) since 2026-11-21 09:00:00 +00:00',
        '└── test-data  kubectl-client-side-apply (Update) since 2026-11-21 10:00:00 +00:00',
        '',
      ].join('\n'),
    );
  });

  it('ends with the notes, and a warning where the schema was deduced (lists owned whole)', () => {
    const field = {
      ...fieldAnswer('.spec.items', [{ name: 'a' }], [flux]),
      schema: { source: 'deduced', typeName: null, digest: 'deduced' } as const,
      notes: [{ code: 'entry-at-other-version', message: 'kubectl-edit owns fields at autoscaling/v1: read through the conversion' }],
    };
    expect(formatWhoOwns('widget/w', field, undefined, NO_PAINT)).toBe(
      [
        'widget/w  as of 2026-11-21 10:00:02 +00:00 (event 3)',
        '.spec.items = [{"name":"a"}]  flux-controller (Apply) since 2026-11-21 09:00:00 +00:00',
        'note: kubectl-edit owns fields at autoscaling/v1: read through the conversion',
        'schema: none stored for this kind, deduced from the values (each list owned as a whole)',
        '',
      ].join('\n'),
    );
  });

  it('finds nothing at a path the tree does not have', () => {
    expect(findNode(TREE, '.spec')).toBeUndefined();
  });
});
