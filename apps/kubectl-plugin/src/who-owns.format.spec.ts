import { NO_PAINT } from './paint.js';
import type { OwnershipNode } from './service-api.types.js';
import { findNode, formatWhoOwns } from './who-owns.format.js';

const kcsa = { manager: 'kubectl-client-side-apply', operation: 'Update', subresource: '', apiVersion: 'v1', since: '2026-11-21T10:00:00Z' };
const flux = { manager: 'flux-controller', operation: 'Apply', subresource: '', apiVersion: 'v1' };
const node = (path: string, segment: string, owners: OwnershipNode['owners'], children: OwnershipNode[] = []): OwnershipNode => ({ path, segment, owned: owners.length > 0, owners, children });
const TREE = node('', '', [], [
  node('.metadata', 'metadata', [], [
    node('.metadata.labels', 'labels', [], [node('.metadata.labels.app', 'app', [flux]), node('.metadata.labels.test-data', 'test-data', [kcsa])]),
  ]),
]);

describe('formatWhoOwns', () => {
  it('prints a leaf field with its value and owners (local time)', () => {
    const field = { path: '.metadata.labels.test-data', fieldsV1Path: 'f:metadata.f:labels.f:test-data', present: true, value: 'true', owners: [kcsa] };
    expect(formatWhoOwns('configmap/app-config -n shop', field, findNode(TREE, field.path), NO_PAINT)).toBe(
      'configmap/app-config -n shop\n.metadata.labels.test-data = "true"  kubectl-client-side-apply (Update) since 2026-11-21 10:00:00 +00:00\n',
    );
  });

  it('draws the owned fields under a path as a tree', () => {
    const field = { path: '.metadata.labels', fieldsV1Path: 'f:metadata.f:labels', present: true, value: { app: 'shop' }, owners: [] };
    expect(formatWhoOwns('cm/x', field, findNode(TREE, '.metadata.labels'), NO_PAINT)).toBe(
      [
        'cm/x',
        '.metadata.labels = {…}  owned by nobody',
        '├── app  flux-controller (Apply)',
        '└── test-data  kubectl-client-side-apply (Update) since 2026-11-21 10:00:00 +00:00',
        '',
      ].join('\n'),
    );
  });

  it('finds nothing at a path the tree does not have', () => {
    expect(findNode(TREE, '.spec')).toBeUndefined();
  });
});
