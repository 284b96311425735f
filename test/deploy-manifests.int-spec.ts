import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { envSchema } from '../libs/config/src/config.schema.js';
import { KUBECTL, KubectlSandbox, kubectlMinor } from '../libs/testing/src/kubectl-sandbox.js';

// deploy/: every overlay rendered with the real `kubectl kustomize`, checked field by field
// (restricted Pod Security profile, probes, env var names, images, replicas, RBAC), then applied
// server-side to the sandbox (the kinds it serves).

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SCHEMA_KEYS = new Set(Object.keys(envSchema.shape));
const OVERLAYS = ['dev', 'production', 'no-secrets'] as const;
type Overlay = (typeof OVERLAYS)[number];

type Obj = Record<string, any> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

function kustomize(dir: string): Promise<Obj[]> {
  return new Promise((res, rej) => {
    execFile(KUBECTL, ['kustomize', dir], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return rej(new Error(`kubectl kustomize ${dir}: ${stderr || err.message}`));
      res(parseAllDocuments(stdout).map((d) => d.toJS() as Obj).filter((o) => o !== null));
    });
  });
}

const rendered = new Map<Overlay, Obj[]>();
const haveKubectl = kubectlMinor !== undefined && kubectlMinor >= 21; // kustomize v4+ inside kubectl

beforeAll(async () => {
  if (!haveKubectl) return;
  for (const o of OVERLAYS) rendered.set(o, await kustomize(join(ROOT, 'deploy', 'overlays', o)));
}, 60_000);

const itRendered = haveKubectl ? it : it.skip;
if (!haveKubectl) console.warn(`skipping deploy/ checks: ${KUBECTL} 1.21+ is needed for kustomize`);

function objects(overlay: Overlay, kind?: string): Obj[] {
  const all = rendered.get(overlay)!;
  return kind ? all.filter((o) => o.kind === kind) : all;
}

function one(overlay: Overlay, kind: string, name: string): Obj {
  const found = objects(overlay, kind).filter((o) => o.metadata.name === name);
  expect(found.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([`${kind}/${name}`]);
  return found[0]!;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicaSet', 'Pod']);

function podSpec(o: Obj): Record<string, any> {
  if (o.kind === 'Pod') return o['spec'];
  if (o.kind === 'CronJob') return o['spec'].jobTemplate.spec.template.spec;
  return o['spec'].template.spec;
}

const isOurs = (o: Obj) => o.metadata.labels?.['app.kubernetes.io/name'] === 'ssa-audit';

/** The restricted Pod Security profile's rules (v1.32), checked on the fields; returns the violations. */
function restrictedViolations(name: string, spec: Record<string, any>): string[] {
  const out: string[] = [];
  const pod = spec['securityContext'] ?? {};
  if (spec['hostNetwork'] || spec['hostPID'] || spec['hostIPC']) out.push(`${name}: host namespaces`);
  if (pod.sysctls?.length) out.push(`${name}: sysctls`);
  const allowedVolumes = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
  for (const v of spec['volumes'] ?? []) {
    for (const k of Object.keys(v)) if (k !== 'name' && !allowedVolumes.has(k)) out.push(`${name}: volume ${v.name} of type ${k}`);
  }
  if (pod.runAsUser === 0) out.push(`${name}: pod runAsUser 0`);
  const containers = [...(spec['initContainers'] ?? []), ...(spec['containers'] ?? []), ...(spec['ephemeralContainers'] ?? [])];
  for (const c of containers) {
    const s = c.securityContext ?? {};
    const at = `${name}/${c.name}`;
    if (s.privileged) out.push(`${at}: privileged`);
    if (s.allowPrivilegeEscalation !== false) out.push(`${at}: allowPrivilegeEscalation is not false`);
    if (!(s.capabilities?.drop ?? []).includes('ALL')) out.push(`${at}: capabilities do not drop ALL`);
    for (const cap of s.capabilities?.add ?? []) if (cap !== 'NET_BIND_SERVICE') out.push(`${at}: adds capability ${cap}`);
    if ((s.runAsNonRoot ?? pod.runAsNonRoot) !== true) out.push(`${at}: runAsNonRoot is not true`);
    if ((s.runAsUser ?? pod.runAsUser) === 0) out.push(`${at}: runAsUser 0`);
    const seccomp = (s.seccompProfile ?? pod.seccompProfile)?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') out.push(`${at}: seccompProfile ${seccomp ?? 'unset'}`);
    if (s.procMount && s.procMount !== 'Default') out.push(`${at}: procMount ${s.procMount}`);
    if (s.seLinuxOptions?.type && !['container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'].includes(s.seLinuxOptions.type)) out.push(`${at}: seLinux type`);
    if (s.appArmorProfile && !['RuntimeDefault', 'Localhost'].includes(s.appArmorProfile.type)) out.push(`${at}: appArmorProfile`);
    for (const p of c.ports ?? []) if (p.hostPort) out.push(`${at}: hostPort ${p.hostPort}`);
    // Beyond the profile: what this project asks of every pod.
    if (s.readOnlyRootFilesystem !== true) out.push(`${at}: readOnlyRootFilesystem is not true`);
    for (const r of ['requests', 'limits'] as const) {
      for (const k of ['cpu', 'memory']) if (!c.resources?.[r]?.[k]) out.push(`${at}: no ${r}.${k}`);
    }
  }
  if (spec['terminationGracePeriodSeconds'] !== 30) out.push(`${name}: terminationGracePeriodSeconds is not 30`);
  return out;
}

/** containerPort of a probe's port (number or a named port of the container). */
function probePort(c: Record<string, any>, port: number | string): number | undefined {
  if (typeof port === 'number') return (c.ports ?? []).some((p: any) => p.containerPort === port) ? port : undefined;
  return (c.ports ?? []).find((p: any) => p.name === port)?.containerPort;
}

const envValue = (c: Record<string, any>, name: string): string | undefined => (c.env ?? []).find((e: any) => e.name === name)?.value;

/** What each role serves: the real routes (apps/api/src/health.controller.ts, apps/watcher/src/watcher.service.ts). */
const ROLE_HTTP: Record<string, { portVar: string; port: number; readiness: string; liveness: string } | undefined> = {
  api: { portVar: 'PORT', port: 3000, readiness: '/readyz', liveness: '/healthz' },
  watcher: { portVar: 'WATCHER_PORT', port: 9464, readiness: '/readyz', liveness: '/healthz' },
  worker: undefined, // no HTTP port
  migrate: undefined,
};

describe('deploy/ overlays, rendered with kubectl kustomize', () => {
  describe.each(OVERLAYS)('%s', (overlay) => {
    itRendered('the namespace enforces the restricted Pod Security profile, and everything lives in it', () => {
      const ns = one(overlay, 'Namespace', 'ssa-audit');
      expect(ns.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
      const clusterScoped = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);
      for (const o of objects(overlay)) {
        if (!clusterScoped.has(o.kind)) expect([`${o.kind}/${o.metadata.name}`, o.metadata.namespace]).toEqual([`${o.kind}/${o.metadata.name}`, 'ssa-audit']);
      }
    });

    itRendered('every pod passes the restricted profile, with a read-only root filesystem, limits and a 30 s grace period', () => {
      const workloads = objects(overlay).filter((o) => WORKLOAD_KINDS.has(o.kind));
      expect(workloads.length).toBeGreaterThanOrEqual(4);
      expect(workloads.flatMap((o) => restrictedViolations(`${o.kind}/${o.metadata.name}`, podSpec(o)))).toEqual([]);
    });

    itRendered('the roles: api, worker and watcher with 2 replicas each, the migrate Job, one image of this version', () => {
      const expectedImage = overlay === 'dev' ? 'ssa-audit:dev' : `ssa-audit:${VERSION}`;
      const roles = { api: 2, worker: 2, watcher: 2 };
      for (const [role, replicas] of Object.entries(roles)) {
        const d = one(overlay, 'Deployment', `ssa-audit-${role}`);
        expect(d['spec'].replicas).toBe(replicas);
        const [c, ...more] = podSpec(d)['containers'];
        expect(more).toEqual([]);
        expect([c.image, c.args, c.command]).toEqual([expectedImage, [role], undefined]);
      }
      const job = one(overlay, 'Job', 'ssa-audit-migrate');
      expect(podSpec(job)['containers'].map((c: any) => [c.image, c.args])).toEqual([[expectedImage, ['migrate']]]);
      // Every image names a tag or digest, never `latest`.
      for (const o of objects(overlay).filter((x) => WORKLOAD_KINDS.has(x.kind))) {
        for (const c of podSpec(o)['containers']) expect([c.name, /(:[\w][\w.-]*|@sha256:[0-9a-f]{64})$/.test(c.image) && !c.image.endsWith(':latest')]).toEqual([c.name, true]);
      }
    });

    itRendered('env var names exist in the config schema; secrets are read from ssa-audit-connections under their own names', () => {
      for (const o of objects(overlay).filter((x) => WORKLOAD_KINDS.has(x.kind) && isOurs(x))) {
        const spec = podSpec(o);
        // Service links would inject <SERVICE>_PORT variables next to ours (WATCHER_PORT…).
        expect([o.metadata.name, spec['enableServiceLinks']]).toEqual([o.metadata.name, false]);
        for (const c of [...(spec['initContainers'] ?? []), ...spec['containers']]) {
          expect(c.envFrom).toBeUndefined();
          for (const e of c.env ?? []) {
            expect([o.metadata.name, e.name, SCHEMA_KEYS.has(e.name)]).toEqual([o.metadata.name, e.name, true]);
            const ref = e.valueFrom?.secretKeyRef;
            if (ref) expect([ref.name, ref.key]).toEqual(['ssa-audit-connections', e.name]);
          }
          // The values given here parse: the schema accepts them (those from Secrets and fieldRefs are checked in the cluster).
          const literal = Object.fromEntries((c.env ?? []).filter((e: any) => e.value !== undefined).map((e: any) => [e.name, e.value]));
          expect(envSchema.safeParse(literal).error?.issues ?? []).toEqual([]);
        }
      }
      const watcher = podSpec(one(overlay, 'Deployment', 'ssa-audit-watcher'))['containers'][0];
      expect(envValue(watcher, 'LEADER_ELECTION')).toBe('true');
      expect((watcher.env as any[]).find((e) => e.name === 'LEASE_NAMESPACE').valueFrom.fieldRef.fieldPath).toBe('metadata.namespace');
      expect(envValue(watcher, 'LEASE_NAME')).toBe('ssa-audit-watcher');
    });

    itRendered('probes point at the routes each role serves, on its configured port; Services reach those ports', () => {
      for (const o of objects(overlay, 'Deployment').filter(isOurs)) {
        const role = o.metadata.labels!['app.kubernetes.io/component']!;
        const c = podSpec(o)['containers'][0];
        const http = ROLE_HTTP[role];
        if (!http) {
          expect([role, c.readinessProbe, c.livenessProbe, c.ports]).toEqual([role, undefined, undefined, undefined]);
          continue;
        }
        expect(Number(envValue(c, http.portVar) ?? http.port)).toBe(http.port);
        expect([role, c.readinessProbe?.httpGet?.path, probePort(c, c.readinessProbe?.httpGet?.port)]).toEqual([role, http.readiness, http.port]);
        expect([role, c.livenessProbe?.httpGet?.path, probePort(c, c.livenessProbe?.httpGet?.port)]).toEqual([role, http.liveness, http.port]);
      }
      for (const s of objects(overlay, 'Service')) {
        const selected = objects(overlay).filter(
          (o) => WORKLOAD_KINDS.has(o.kind) && Object.entries(s['spec'].selector).every(([k, v]) => (o['spec'].template?.metadata?.labels ?? {})[k] === v),
        );
        expect([s.metadata.name, selected.length]).toEqual([s.metadata.name, 1]);
        for (const p of s['spec'].ports) expect([s.metadata.name, probePort(podSpec(selected[0]!)['containers'][0], p.targetPort)]).toEqual([s.metadata.name, p.port]);
      }
      expect(one(overlay, 'Service', 'ssa-audit-api')['spec'].ports[0].port).toBe(3000);
      expect(one(overlay, 'Service', 'ssa-audit-watcher-metrics')['spec'].ports[0].port).toBe(9464);
    });

    itRendered('PodDisruptionBudgets cover the three Deployments of the service', () => {
      const pdbs = objects(overlay, 'PodDisruptionBudget');
      for (const role of ['api', 'worker', 'watcher']) {
        const d = one(overlay, 'Deployment', `ssa-audit-${role}`);
        const covering = pdbs.filter((p) => Object.entries(p['spec'].selector.matchLabels).every(([k, v]) => d['spec'].template.metadata.labels[k] === v));
        expect([role, covering.length]).toEqual([role, 1]);
      }
    });

    itRendered('RBAC: the watcher reads (no wildcard resources, no subresources), the api reviews, nothing writes tracked objects', () => {
      const roles = [...objects(overlay, 'ClusterRole'), ...objects(overlay, 'Role')];
      const reviews = new Set(['tokenreviews', 'subjectaccessreviews']);
      for (const r of roles) {
        for (const rule of r['rules'] ?? []) {
          const at = `${r.kind}/${r.metadata.name}`;
          if (rule.nonResourceURLs) {
            expect([at, rule.verbs]).toEqual([at, ['get']]);
            continue;
          }
          expect([at, (rule.resources as string[]).filter((x) => x === '*' || x.includes('/'))]).toEqual([at, []]);
          expect([at, rule.apiGroups.includes('*')]).toEqual([at, false]);
          const writes = (rule.verbs as string[]).filter((v) => !['get', 'list', 'watch'].includes(v));
          if (writes.length === 0) continue;
          // The only writes: the reviews (create) and the watcher's own Lease.
          const lease = r.kind === 'Role' && rule.resources.every((x: string) => x === 'leases');
          const review = rule.resources.every((x: string) => reviews.has(x));
          expect([at, writes.every((v) => (lease ? ['create', 'update'] : ['create']).includes(v)), lease || review]).toEqual([at, true, true]);
        }
      }
      const aggregated = one(overlay, 'ClusterRole', 'ssa-audit-watcher');
      const selector = aggregated['aggregationRule'].clusterRoleSelectors[0].matchLabels;
      const parts = objects(overlay, 'ClusterRole').filter((r) => Object.entries(selector).every(([k, v]) => r.metadata.labels?.[k] === v));
      const granted = (group: string, resource: string) =>
        parts.some((p) => p['rules'].some((rule: any) => rule.apiGroups?.includes(group) && rule.resources.includes(resource) && ['get', 'list', 'watch'].every((v) => rule.verbs.includes(v))));
      for (const [g, res] of [['', 'namespaces'], ['', 'pods'], ['apps', 'deployments'], ['apiextensions.k8s.io', 'customresourcedefinitions']] as const) {
        expect([g, res, granted(g, res)]).toEqual([g, res, true]);
      }
      const urls = parts.flatMap((p) => p['rules'].flatMap((rule: any) => rule.nonResourceURLs ?? []));
      expect(urls).toEqual(expect.arrayContaining(['/api', '/api/*', '/apis', '/apis/*', '/openapi/*', '/version']));
      const lease = one(overlay, 'Role', 'ssa-audit-leader-election');
      expect(lease['rules'].flatMap((r: any) => r.verbs).sort()).toEqual(['create', 'get', 'update']);
      // Bindings: each role's ServiceAccount, in the service's namespace.
      for (const [binding, sa] of [['ClusterRoleBinding/ssa-audit-watcher', 'ssa-audit-watcher'], ['ClusterRoleBinding/ssa-audit-api', 'ssa-audit-api'], ['RoleBinding/ssa-audit-leader-election', 'ssa-audit-watcher']] as const) {
        const [kind, name] = binding.split('/') as [string, string];
        expect(one(overlay, kind, name)['subjects']).toEqual([{ kind: 'ServiceAccount', name: sa, namespace: 'ssa-audit' }]);
      }
      const secretsGranted = granted('', 'secrets');
      expect(secretsGranted).toBe(overlay !== 'no-secrets');
      const exclude = envValue(podSpec(one(overlay, 'Deployment', 'ssa-audit-watcher'))['containers'][0], 'RESOURCES_EXCLUDE');
      if (overlay === 'no-secrets') expect(exclude?.split(',')).toEqual(expect.arrayContaining(['secrets', 'events', 'leases.coordination.k8s.io']));
      else expect(exclude).toBeUndefined();
    });

    itRendered('NetworkPolicies: default deny, the api on 3000, egress to DNS, the stores and the apiserver', () => {
      const np = (name: string) => one(overlay, 'NetworkPolicy', name)['spec'];
      expect(np('ssa-audit-default-deny')).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
      expect(np('ssa-audit-api-ingress').ingress.flatMap((r: any) => r.ports)).toEqual([{ protocol: 'TCP', port: 3000 }]);
      expect(np('ssa-audit-egress-dns').egress[0].ports.map((p: any) => p.port)).toEqual([53, 53]);
      expect(np('ssa-audit-egress-stores').egress.flatMap((r: any) => r.ports.map((p: any) => p.port)).sort()).toEqual([5432, 6379]);
      expect(np('ssa-audit-egress-apiserver').egress.flatMap((r: any) => r.ports.map((p: any) => p.port)).sort()).toEqual([443, 6443]);
    });

    itRendered('the Secret the roles read: generated by dev, left to the operator in production', () => {
      const secrets = objects(overlay, 'Secret').map((s) => s.metadata.name);
      if (overlay === 'dev') {
        const s = one(overlay, 'Secret', 'ssa-audit-connections');
        expect(Object.keys(s['data']).sort()).toEqual(['DATABASE_URL', 'REDIS_URL', 'SENSITIVE_HASH_KEY']);
        const decoded = Object.fromEntries(Object.entries(s['data'] as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
        expect(envSchema.safeParse(decoded).success).toBe(true);
      } else {
        expect(secrets).toEqual([]);
      }
    });
  });
});

// Server-side apply of each overlay to the sandbox: the apiserver's own validation of every field
// (kubectl 1.32 applies with fieldValidation=Strict). Only the kinds the sandbox serves; the others
// are listed on the console.
describe('deploy/ overlays, applied server-side to the sandbox', () => {
  const itApply = kubectlMinor !== undefined && kubectlMinor >= 26 ? it : it.skip;

  // A sandbox per overlay: a Job's pod template cannot change, as in a real cluster.
  itApply.each(OVERLAYS)('%s', async (overlay) => {
    const sb = await KubectlSandbox.start();
    try {
      const resources = (await sb.ok(['api-resources', '--no-headers'])).split('\n').filter((l) => l.trim() !== '');
      const servedKinds = new Set(resources.map((l) => l.trim().split(/\s+/).at(-1)!));
      const all = objects(overlay);
      const skipped = [...new Set(all.filter((o) => !servedKinds.has(o.kind)).map((o) => o.kind))].sort();
      // The sandbox serves every kind deploy/ uses: each object is applied, none skipped.
      expect(skipped).toEqual([]);
      const applied = all;
      const input = applied.map((o) => stringify(o, { version: '1.1' })).join('---\n'); // kubectl reads YAML 1.1: "yes" must be quoted
      await sb.ok(['apply', '--server-side', '--field-manager', 'deploy-test', '-f', '-'], { input });
      // Every object is there.
      expect((await sb.ok(['get', '-f', '-', '-o', 'name'], { input })).split('\n').filter((l) => l !== '')).toHaveLength(applied.length);
      const names = (await sb.ok(['get', 'deployments,jobs', '-n', 'ssa-audit', '-o', 'name'])).split('\n').filter((l) => l !== '');
      expect(names).toEqual(expect.arrayContaining(['deployment.apps/ssa-audit-api', 'deployment.apps/ssa-audit-watcher', 'deployment.apps/ssa-audit-worker', 'job.batch/ssa-audit-migrate']));
      // What we sent is what the server keeps (nothing pruned as unknown).
      const watcher = await sb.getJson('deployment', 'ssa-audit-watcher', '-n', 'ssa-audit');
      const sent = podSpec(one(overlay, 'Deployment', 'ssa-audit-watcher'));
      expect(watcher['spec'].template.spec.securityContext).toEqual(sent['securityContext']);
      expect(watcher['spec'].template.spec.containers[0].securityContext).toEqual(sent['containers'][0].securityContext);
    } finally {
      await sb.close();
    }
  }, 120_000);
});
