import type { ObjectListItem } from '../../../libs/audit/src/index.js';
import { pickObject } from './object-lookup.js';

const item = (id: string, cluster: string, deleted = false, lastAt = '2026-11-21T10:00:00Z'): ObjectListItem => ({
  id,
  cluster,
  uid: `uid-${id}`,
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  namespace: 'default',
  name: 'web',
  deleted,
  lastSeq: id,
  lastAt,
});

describe('pickObject', () => {
  it('prefers the live object to a deleted one of the same name', () => {
    expect(pickObject([item('1', 'prod', true, '2026-11-22T00:00:00Z'), item('2', 'prod')], 'deployment.apps/web').id).toBe('2');
  });
  it('falls back to the latest deleted one', () => {
    expect(pickObject([item('1', 'prod', true, '2026-11-20T00:00:00Z'), item('2', 'prod', true, '2026-11-22T00:00:00Z')], 'x').id).toBe('2');
  });
  it('is not found (exit 3) when nothing matches', () => {
    expect(() => pickObject([], 'deployment.apps/web -n default')).toThrow(expect.objectContaining({ kind: 'not-found', message: 'deployment.apps/web -n default is not tracked by the ssa-audit service' }));
    expect(() => pickObject([item('1', 'prod')], 'x', 'staging')).toThrow(expect.objectContaining({ kind: 'not-found' }));
  });
  it('asks for --cluster when several clusters match', () => {
    expect(() => pickObject([item('1', 'prod'), item('2', 'staging')], 'x')).toThrow(expect.objectContaining({ kind: 'usage', message: expect.stringContaining('--cluster') }));
    expect(pickObject([item('1', 'prod'), item('2', 'staging')], 'x', 'staging').id).toBe('2');
  });
});
