import { formatHistory } from './history.format.js';
import { NO_PAINT } from './paint.js';
import type { HistoryAnswer } from './service-api.types.js';
const BUNDLED = { source: 'bundled', typeName: 'io.k8s.api.core.v1.Pod', digest: '0000000000000000' } as const;

const t = (seq: string, at: string, type: HistoryAnswer['transitions'][number]['type'], manager: string, operation: 'Apply' | 'Update') => ({
  seq,
  at,
  type,
  manager,
  operation,
  subresource: '',
  apiVersion: 'v1',
  owners: [],
  from: [],
  valueChanged: true,
  reconstructed: false,
  notes: [],
});

describe('formatHistory', () => {
  it('lists each transition with the value after it', () => {
    const h: HistoryAnswer = {
      schema: BUNDLED,
      path: '.spec.containers[name="nginx-container"].image',
      fieldsV1Path: 'f:spec.f:containers.k:{"name":"nginx-container"}.f:image',
      transitions: [t('1', '2026-11-21T04:50:00Z', 'acquired', 'kubectl', 'Apply'), t('2', '2026-11-21T04:54:00Z', 'taken', 'kubectl-set', 'Update'), t('3', '2026-11-21T05:10:00Z', 'forced', 'kubectl', 'Apply')],
      values: [
        { seq: '1', at: '2026-11-21T04:50:00Z', present: true, value: 'nginx:1.16', reconstructed: false },
        { seq: '2', at: '2026-11-21T04:54:00Z', present: true, value: 'nginx:1.17', reconstructed: false },
        { seq: '3', at: '2026-11-21T05:10:00Z', present: true, value: 'nginx:1.16', reconstructed: false },
      ],
    };
    expect(formatHistory('pod/nginx -n web', h, NO_PAINT)).toBe(
      [
        'pod/nginx -n web  .spec.containers[name="nginx-container"].image',
        '2026-11-21 04:50:00 +00:00  acquired  kubectl (Apply)  → "nginx:1.16"',
        '2026-11-21 04:54:00 +00:00  taken     kubectl-set (Update)  → "nginx:1.17"',
        '2026-11-21 05:10:00 +00:00  forced    kubectl (Apply)  → "nginx:1.16"',
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing happened to the field', () => {
    expect(formatHistory('pod/x', { path: '.spec.x', fieldsV1Path: 'f:spec.f:x', transitions: [], values: [], schema: BUNDLED }, NO_PAINT)).toBe('pod/x  .spec.x\nno ownership changes recorded\n');
  });
});

describe('formatHistory of a deleted object', () => {
  it('prints a removal by an unknown writer as such', () => {
    const removed = { ...t('4', '2026-11-21T05:20:00Z', 'removed', 'x', 'Update'), manager: null, operation: null, subresource: null, apiVersion: null, notes: ['object-deleted'] };
    const h: HistoryAnswer = { schema: BUNDLED, path: '.data.color', fieldsV1Path: 'f:data.f:color', transitions: [removed], values: [{ seq: '4', at: '2026-11-21T05:20:00Z', present: false, value: null, reconstructed: false }] };
    expect(formatHistory('configmap/app-config -n shop', h, NO_PAINT).split('\n')[1]).toBe('2026-11-21 05:20:00 +00:00  removed  (writer unknown)  → <absent>  [object-deleted]');
  });
});
