import type { KubeClient } from '../../../libs/kube/src/kube-client.js';
import { KubeError } from '../../../libs/kube/src/kube.exception.js';
import { discoverResourceTypes } from './discover-resources.js';

/** A client whose answers are given per path: a value, or an error. */
const client = (answers: Record<string, unknown>) =>
  ({ json: (path: string) => (answers[path] instanceof Error ? Promise.reject(answers[path]) : Promise.resolve(answers[path])) }) as unknown as KubeClient;
const groups = { groups: [{ name: 'apps', preferredVersion: { version: 'v1' } }] };

describe('discoverResourceTypes', () => {
  it('names each resource type as kubectl resolves it, in discovery order (the core group first)', async () => {
    const c = client({
      '/api/v1': { resources: [{ name: 'configmaps', singularName: 'configmap', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] }, { name: 'pods/log', kind: 'Pod', namespaced: true }] },
      '/apis': groups,
      '/apis/apps/v1': { resources: [{ name: 'deployments', singularName: '', kind: 'Deployment', namespaced: true }] },
    });
    expect(await discoverResourceTypes(c)).toEqual([
      { group: '', version: 'v1', resource: 'configmaps', singular: 'configmap', kind: 'ConfigMap', shortNames: ['cm'], namespaced: true },
      { group: 'apps', version: 'v1', resource: 'deployments', singular: 'deployment', kind: 'Deployment', shortNames: [], namespaced: true },
    ]);
  });

  it('fails when the core group fails (not "no such resource type" later)', async () => {
    const c = client({ '/api/v1': new KubeError('HTTP', '/api/v1: 503', 503), '/apis': groups, '/apis/apps/v1': { resources: [] } });
    await expect(discoverResourceTypes(c)).rejects.toThrow('/api/v1: 503');
  });
});
