import { BUILTIN_SCHEMA, builtinTypeName, builtinTypeNameFor, isBuiltinKind } from './builtin-schema.js';
import { Schema, type ResolvedType } from './resolved-schema.js';

function field(t: ResolvedType, ...names: string[]): ResolvedType {
  let cur = t;
  for (const n of names) {
    const f = cur.map?.fields.get(n);
    if (!f) throw new Error(`no field ${n} in ${cur.name}`);
    cur = f.type;
  }
  return cur;
}

describe('BUILTIN_SCHEMA', () => {
  it('is a compiled Schema with the built-in kinds and the two untyped types', () => {
    expect(BUILTIN_SCHEMA).toBeInstanceOf(Schema);
    expect(BUILTIN_SCHEMA.has('io.k8s.api.apps.v1.Deployment')).toBe(true);
    expect(BUILTIN_SCHEMA.has('io.k8s.api.autoscaling.v1.Scale')).toBe(true);
    expect(BUILTIN_SCHEMA.has('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')).toBe(true);
    expect(BUILTIN_SCHEMA.has('__untyped_atomic_')).toBe(true);
    expect(BUILTIN_SCHEMA.has('__untyped_deduced_')).toBe(true);
  });

  describe('Deployment', () => {
    const deployment = BUILTIN_SCHEMA.type('io.k8s.api.apps.v1.Deployment');
    const podSpec = field(deployment, 'spec', 'template', 'spec');

    it('containers and initContainers are list-maps keyed by name', () => {
      for (const name of ['containers', 'initContainers']) {
        const l = field(podSpec, name).list;
        expect(l).toMatchObject({ associative: true, atomic: false, keys: ['name'] });
        expect(l?.elementType.name).toBe('io.k8s.api.core.v1.Container');
      }
    });

    it('container ports are keyed by containerPort and protocol, protocol defaults to TCP', () => {
      const ports = field(podSpec, 'containers').list!.elementType.map!.fields.get('ports')!.type.list!;
      expect(ports.associative).toBe(true);
      expect(ports.keys).toEqual(['containerPort', 'protocol']);
      const protocol = ports.elementType.map!.fields.get('protocol')!;
      expect(protocol.hasDefault).toBe(true);
      expect(protocol.default).toBe('TCP');
      expect(ports.elementType.map!.fields.get('containerPort')!.type.scalar).toBe('numeric');
    });

    it('env, volumeMounts, volumes, imagePullSecrets have their keys', () => {
      const container = field(podSpec, 'containers').list!.elementType;
      expect(field(container, 'env').list?.keys).toEqual(['name']);
      expect(field(container, 'volumeMounts').list?.keys).toEqual(['mountPath']);
      expect(field(podSpec, 'volumes').list?.keys).toEqual(['name']);
      expect(field(podSpec, 'imagePullSecrets').list?.keys).toEqual(['name']);
    });

    it('args, command and tolerations are atomic lists', () => {
      const container = field(podSpec, 'containers').list!.elementType;
      expect(field(container, 'args').list?.atomic).toBe(true);
      expect(field(container, 'command').list?.atomic).toBe(true);
      expect(field(podSpec, 'tolerations').list?.atomic).toBe(true);
    });

    it('the selector is an atomic struct; labels are a granular string map', () => {
      const selector = field(deployment, 'spec', 'selector').map!;
      expect(selector.atomic).toBe(true);
      const labels = field(deployment, 'metadata', 'labels').map!;
      expect(labels.atomic).toBe(false);
      expect(labels.fields.size).toBe(0);
      expect(labels.elementType?.scalar).toBe('string');
    });

    it('metadata: finalizers is a set, ownerReferences keyed by uid', () => {
      const finalizers = field(deployment, 'metadata', 'finalizers').list!;
      expect(finalizers).toMatchObject({ associative: true, keys: [] });
      expect(field(deployment, 'metadata', 'ownerReferences').list?.keys).toEqual(['uid']);
    });

    it('resource quantities are untyped scalars', () => {
      const limits = field(podSpec, 'containers').list!.elementType.map!.fields.get('resources')!.type;
      expect(field(limits, 'limits').map?.elementType?.scalar).toBe('untyped');
    });

    it('status conditions are keyed by type', () => {
      expect(field(deployment, 'status', 'conditions').list?.keys).toEqual(['type']);
    });
  });

  it('Service ports are keyed by port and protocol with protocol default TCP', () => {
    const ports = field(BUILTIN_SCHEMA.type('io.k8s.api.core.v1.Service'), 'spec', 'ports').list!;
    expect(ports.keys).toEqual(['port', 'protocol']);
    expect(ports.elementType.map!.fields.get('protocol')!.default).toBe('TCP');
  });
});

describe('builtinTypeName', () => {
  it.each([
    ['apps/v1', 'Deployment', 'io.k8s.api.apps.v1.Deployment'],
    ['v1', 'Pod', 'io.k8s.api.core.v1.Pod'],
    ['v1', 'ConfigMap', 'io.k8s.api.core.v1.ConfigMap'],
    ['autoscaling/v1', 'Scale', 'io.k8s.api.autoscaling.v1.Scale'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'io.k8s.api.rbac.v1.ClusterRole'],
    ['networking.k8s.io/v1', 'Ingress', 'io.k8s.api.networking.v1.Ingress'],
  ])('%s %s → %s', (apiVersion, kind, name) => {
    expect(builtinTypeName(apiVersion, kind)).toBe(name);
    expect(isBuiltinKind(apiVersion, kind)).toBe(true);
  });

  it.each([
    ['example.com/v1', 'Widget'],
    ['apps/v2', 'Deployment'],
    ['v1', 'ObjectMeta'],
    ['v1', 'Container'],
    ['', 'Pod'],
    ['v1', ''],
    ['a/b/c', 'Pod'],
  ])('%s %s → undefined', (apiVersion, kind) => {
    expect(builtinTypeName(apiVersion, kind)).toBeUndefined();
    expect(isBuiltinKind(apiVersion, kind)).toBe(false);
  });

  it('builtinTypeNameFor applies the naming rule without looking at the schema', () => {
    expect(builtinTypeNameFor('example.com/v1', 'Widget')).toBe('io.k8s.api.example.v1.Widget');
    expect(builtinTypeNameFor('v1', 'Pod')).toBe('io.k8s.api.core.v1.Pod');
  });
});
