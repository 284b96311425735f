import { kubectlObjectName, objectLabel, parseObjectRef, resolveResource, type DiscoveredResource } from './resource-ref.js';

const r = (group: string, version: string, resource: string, kind: string, shortNames: string[] = [], namespaced = true): DiscoveredResource => ({
  group,
  version,
  resource,
  singular: kind.toLowerCase(),
  kind,
  shortNames,
  namespaced,
});

// Discovery order: the core group first, as the apiserver serves it.
const RESOURCES = [
  r('', 'v1', 'pods', 'Pod', ['po']),
  r('', 'v1', 'configmaps', 'ConfigMap', ['cm']),
  r('', 'v1', 'namespaces', 'Namespace', ['ns'], false),
  r('', 'v1', 'events', 'Event', ['ev']),
  r('apps', 'v1', 'deployments', 'Deployment', ['deploy']),
  r('events.k8s.io', 'v1', 'events', 'Event', ['ev']),
  r('example.com', 'v1alpha1', 'widgets', 'Widget', ['wd']),
];

describe('parseObjectRef', () => {
  it('splits TYPE/NAME', () => {
    expect(parseObjectRef('deploy/web')).toEqual({ type: 'deploy', name: 'web' });
    expect(parseObjectRef('deployments.apps/web')).toEqual({ type: 'deployments.apps', name: 'web' });
  });
  it.each(['web', '/web', 'deploy/', 'a/b/c', ''])('refuses %p as bad usage', (arg) => {
    expect(() => parseObjectRef(arg)).toThrow(expect.objectContaining({ kind: 'usage', message: expect.stringContaining('TYPE/NAME') }));
  });
});

describe('resolveResource', () => {
  it.each([
    ['deploy', 'apps', 'deployments'],
    ['deployment', 'apps', 'deployments'],
    ['deployments', 'apps', 'deployments'],
    ['Deployment', 'apps', 'deployments'],
    ['deployments.apps', 'apps', 'deployments'],
    ['deployment.v1.apps', 'apps', 'deployments'],
    ['deploy.apps', 'apps', 'deployments'],
    ['configmap', '', 'configmaps'],
    ['cm', '', 'configmaps'],
    ['po', '', 'pods'],
    ['ns', '', 'namespaces'],
    ['widget', 'example.com', 'widgets'],
    ['widgets.example.com', 'example.com', 'widgets'],
    // Served by two groups: the core group wins unless the name is qualified.
    ['events', '', 'events'],
    ['ev', '', 'events'],
    ['events.events.k8s.io', 'events.k8s.io', 'events'],
  ])('%s → %s/%s', (type, group, resource) => {
    expect(resolveResource(type, RESOURCES)).toMatchObject({ group, resource });
  });

  it.each(['nothing', 'deployments.extensions', 'deployment.v2.apps', 'pods.apps'])('%s is no resource', (type) => {
    expect(resolveResource(type, RESOURCES)).toBeUndefined();
  });
});

describe('kubectlObjectName', () => {
  it('is kind.group/name as kubectl prints it', () => {
    expect(kubectlObjectName(RESOURCES[4]!, 'web')).toBe('deployment.apps/web');
    expect(kubectlObjectName(RESOURCES[0]!, 'nginx')).toBe('pod/nginx');
  });
});

describe('objectLabel', () => {
  it('is the kubectl name, with -n for a namespaced object', () => {
    expect(objectLabel(RESOURCES[4]!, 'web', 'shop')).toBe('deployment.apps/web -n shop');
    expect(objectLabel(RESOURCES[2]!, 'shop', undefined)).toBe('namespace/shop');
    expect(objectLabel(RESOURCES[1]!, 'app-config', null)).toBe('configmap/app-config');
  });
});
