import { discoverResources, fetchGroupVersionResources, matchesPattern, resourceKey, selectResources, type ApiResource } from './discovery.js';
import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

const r = (group: string, resource: string): ApiResource => ({ group, version: 'v1', resource, kind: resource, namespaced: true });

describe('resource selection', () => {
  it('names resources as kubectl does', () => {
    expect(resourceKey(r('', 'pods'))).toBe('pods');
    expect(resourceKey(r('apps', 'deployments'))).toBe('deployments.apps');
  });

  it('matches globs on the whole name, dots literal', () => {
    expect(matchesPattern('widgets.example.com', '*.example.com')).toBe(true);
    expect(matchesPattern('widgets.examplexcom', '*.example.com')).toBe(false);
    expect(matchesPattern('pods', 'pod')).toBe(false);
    expect(matchesPattern('anything.at.all', '*')).toBe(true);
  });

  it('includes by any include pattern, minus any exclude pattern', () => {
    const all = [r('', 'pods'), r('', 'events'), r('coordination.k8s.io', 'leases'), r('discovery.k8s.io', 'endpointslices'), r('example.com', 'widgets'), r('apps', 'deployments')];
    const defaults = ['events', 'events.events.k8s.io', 'leases.coordination.k8s.io', 'endpointslices.discovery.k8s.io', 'endpoints'];
    expect(selectResources(all, ['*'], defaults).map(resourceKey)).toEqual(['pods', 'widgets.example.com', 'deployments.apps']);
    expect(selectResources(all, ['*.example.com', 'pods'], []).map(resourceKey)).toEqual(['pods', 'widgets.example.com']);
  });
});

describe('fetchGroupVersionResources', () => {
  it('serves each group-version as discovery lists it, the core group first, subresources left out; /api/v1 asked before /apis answers', async () => {
    const asked: string[] = [];
    const c = {
      json: (path: string) => {
        asked.push(path);
        const answers: Record<string, unknown> = {
          '/api/v1': { resources: [{ name: 'pods', singularName: 'pod', kind: 'Pod', namespaced: true, shortNames: ['po'], verbs: ['get', 'list', 'watch'] }, { name: 'pods/log', kind: 'Pod', namespaced: true }] },
          '/apis': { groups: [{ name: 'apps', preferredVersion: { version: 'v1' }, versions: [{ version: 'v1beta1' }] }] },
          '/apis/apps/v1': { resources: [{ name: 'deployments', singularName: '', kind: 'Deployment', namespaced: true }] },
        };
        return Promise.resolve(answers[path]);
      },
    } as unknown as KubeClient;
    expect(await fetchGroupVersionResources(c)).toEqual([
      { group: '', version: 'v1', resources: [{ name: 'pods', singularName: 'pod', kind: 'Pod', namespaced: true, shortNames: ['po'], verbs: ['get', 'list', 'watch'] }] },
      { group: 'apps', version: 'v1', resources: [{ name: 'deployments', singularName: '', kind: 'Deployment', namespaced: true }] },
    ]);
    expect(asked).toEqual(['/api/v1', '/apis', '/apis/apps/v1']);
  });
});

describe('discoverResources', () => {
  const list = (name: string) => ({ resources: [{ name, kind: name, namespaced: true, verbs: ['list', 'watch'] }] });
  /** A client whose answers are given per path: a value, or an error thrown after `ms`. */
  const client = (answers: Record<string, unknown>) =>
    ({
      json: (path: string) =>
        new Promise((resolve, reject) => {
          const a = answers[path];
          if (a instanceof Error) setTimeout(() => reject(a), path === '/api/v1' ? 20 : 0);
          else resolve(a);
        }),
    }) as unknown as KubeClient;
  const network = (path: string) => new KubeError('NETWORK', `${path}: connect ECONNREFUSED`);

  it('leaves out a group-version answering an error, keeps the rest', async () => {
    const c = client({ '/api/v1': list('pods'), '/apis': { groups: [{ name: 'apps', preferredVersion: { version: 'v1' } }, { name: 'gone.example.com', versions: [{ version: 'v1' }] }] }, '/apis/apps/v1': list('deployments'), '/apis/gone.example.com/v1': new KubeError('HTTP', '404', 404) });
    expect((await discoverResources(c)).map(resourceKey)).toEqual(['deployments.apps', 'pods']);
  });

  it('fails when the cluster does not answer (no resource is taken for gone), without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      // /apis fails first; /api/v1 fails later, after discovery has already thrown.
      await expect(discoverResources(client({ '/api/v1': network('/api/v1'), '/apis': network('/apis') }))).rejects.toThrow('/apis: connect ECONNREFUSED');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
      const groupDown = client({ '/api/v1': list('pods'), '/apis': { groups: [{ name: 'apps', preferredVersion: { version: 'v1' } }] }, '/apis/apps/v1': network('/apis/apps/v1') });
      await expect(discoverResources(groupDown)).rejects.toThrow('ECONNREFUSED');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
