import { NO_PAINT } from './paint.js';
import { formatWhy } from './why.format.js';
const BUNDLED = { source: 'bundled', typeName: 'io.k8s.api.core.v1.Pod', digest: '0000000000000000' } as const;

describe('formatWhy', () => {
  it('prints the cause, the release, the remaining owners and the remedies with their commands', () => {
    const out = formatWhy(
      'configmap/app-config -n shop',
      {
        schema: BUNDLED,
        path: '.metadata.labels.test-data',
        fieldsV1Path: 'f:metadata.f:labels.f:test-data',
        present: true,
        cause: 'co-owned-after-release',
        causes: ['client-side-apply-leftover', 'co-owned-after-release'],
        message: 'flux-controller stopped applying .metadata.labels.test-data, but kubectl-client-side-apply (Update) still owns it',
        releasedBy: { manager: 'flux-controller', operation: 'Apply', subresource: '', at: '2026-11-21T10:00:03Z', seq: '6' },
        remainingOwners: [{ manager: 'kubectl-client-side-apply', operation: 'Update', subresource: '', apiVersion: 'v1', since: '2026-11-21T10:00:00Z', sinceSeq: '1', via: 'self', index: 0 }],
        remedies: [
          { kind: 'csa-migration', summary: 'apply server-side', command: 'kubectl apply --server-side -n shop -f <manifest>', commands: ['kubectl apply --server-side -n shop -f <manifest>'], patch: null, warning: null },
          { kind: 'delete-field', summary: 'delete it', command: 'kubectl label configmap/app-config -n shop test-data-', commands: [], patch: null, warning: 'it comes back' },
        ],
        notes: [],
        objectDeleted: false,
      },
      NO_PAINT,
    );
    expect(out).toBe(
      [
        'configmap/app-config -n shop  .metadata.labels.test-data  present',
        'cause: co-owned-after-release (also: client-side-apply-leftover)',
        'flux-controller stopped applying .metadata.labels.test-data, but kubectl-client-side-apply (Update) still owns it',
        'released by: flux-controller (Apply) at 2026-11-21 10:00:03 +00:00',
        'still owned by: kubectl-client-side-apply (Update)',
        '',
        'remedies:',
        '1. csa-migration: apply server-side',
        '   $ kubectl apply --server-side -n shop -f <manifest>',
        '2. delete-field: delete it',
        '   $ kubectl label configmap/app-config -n shop test-data-',
        '   warning: it comes back',
        '',
      ].join('\n'),
    );
  });
});

describe('formatWhy notes', () => {
  it('prints each note by its message', () => {
    const out = formatWhy(
      'configmap/app-config -n shop',
      {
        schema: BUNDLED,
        path: '.data.color', fieldsV1Path: 'f:data.f:color', present: false, cause: 'object-deleted', causes: ['object-deleted'], message: '',
        releasedBy: null, remainingOwners: [], remedies: [], notes: [{ code: 'watch-gap', message: 'writes in between are not known' }], objectDeleted: true,
      },
      NO_PAINT,
    );
    expect(out.split('\n')).toContain('note: writes in between are not known');
  });
});
