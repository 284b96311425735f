import { matchesPattern, resourceKey, selectResources, type ApiResource } from './discovery.js';

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
