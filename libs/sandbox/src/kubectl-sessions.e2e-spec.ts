import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { itWithKubectl, KubectlSandbox, owners } from '../../testing/src/kubectl-sandbox.js';

const any = itWithKubectl(18, 'server-side apply');

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  containers:
  - name: nginx
    image: nginx:1.25
`;

const deployment = (replicas?: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.25}]
`;

describe('kubectl sessions against the sandbox (real kubectl)', () => {
  let k: KubectlSandbox;
  beforeEach(async () => {
    k = await KubectlSandbox.start();
  });
  afterEach(async () => {
    await k.close();
  });

  itWithKubectl(21, '--show-managed-fields')('1: apply --server-side, set image takes the image, re-apply conflicts, --force-conflicts wins', async () => {
    expect(await k.ok(['apply', '--server-side', '-f', '-'], { input: POD })).toBe('pod/web serverside-applied\n');
    expect(await k.ok(['set', 'image', 'pod/web', 'nginx=nginx:1.26'])).toBe('pod/web image updated\n');
    let pod = await k.getJson('pod', 'web');
    expect(owners(pod)['kubectl-set/Update']).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { 'f:image': {} } } } });

    const again = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: POD });
    expect(again.code).toBe(1);
    expect(again.stderr.split('\n')[0]).toBe('error: Apply failed with 1 conflict: conflict with "kubectl-set" using v1: .spec.containers[name="nginx"].image');
    expect(again.stderr).toContain('please re-run the apply\n  command with the `--force-conflicts` flag.');

    await k.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: POD });
    pod = await k.getJson('pod', 'web');
    expect(pod['spec'].containers[0].image).toBe('nginx:1.25');
    expect(Object.keys(owners(pod))).toEqual(['kubectl/Apply']);
    expect(owners(pod)['kubectl/Apply']).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
    });
    const yaml = await k.ok(['get', 'pod', 'web', '-o', 'yaml', '--show-managed-fields']);
    expect(yaml).toContain('    manager: kubectl\n    operation: Apply\n');
    const plain = await k.ok(['get', 'pod', 'web', '-o', 'yaml']);
    expect(plain).not.toContain('managedFields');
  });

  any('2: two appliers on one ConfigMap: conflict on the shared key, force moves that key only', async () => {
    const a = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {shared: "1", a: "a"}\n';
    const b = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {shared: "2", b: "b"}\n';
    await k.ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], { input: a });
    const r = await k.kubectl(['apply', '--server-side', '--field-manager=bob', '-f', '-'], { input: b });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: Apply failed with 1 conflict: conflict with "alice": .data.shared');
    await k.ok(['apply', '--server-side', '--field-manager=bob', '--force-conflicts', '-f', '-'], { input: b });
    const cm = await k.getJson('cm', 'cfg');
    expect(cm['data']).toEqual({ a: 'a', b: 'b', shared: '2' });
    expect(owners(cm)).toEqual({
      'alice/Apply': { 'f:data': { 'f:a': {} } },
      'bob/Apply': { 'f:data': { 'f:b': {}, 'f:shared': {} } },
    });
  });

  itWithKubectl(24, '--subresource')('3: replicas taken through /scale: re-apply conflicts naming the subresource; apply without replicas keeps the value; kubectl scale', async () => {
    await k.ok(['apply', '--server-side', '-f', '-'], { input: deployment(2) });
    await k.ok(['patch', 'deployment', 'web', '--subresource=scale', '--type=merge', '--field-manager=hpa', '-p', '{"spec":{"replicas":5}}']);
    let d = await k.getJson('deployment', 'web');
    expect(d['spec'].replicas).toBe(5);
    expect(owners(d)['hpa/Update/scale']).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(JSON.stringify(owners(d)['kubectl/Apply'])).not.toContain('f:replicas');

    const r = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment(2) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: Apply failed with 1 conflict: conflict with "hpa" with subresource "scale" using apps/v1: .spec.replicas');

    await k.ok(['apply', '--server-side', '-f', '-'], { input: deployment() });
    d = await k.getJson('deployment', 'web');
    expect(d['spec'].replicas).toBe(5);

    expect(await k.ok(['scale', 'deployment', 'web', '--replicas=7'])).toBe('deployment.apps/web scaled\n');
    d = await k.getJson('deployment', 'web');
    expect(d['spec'].replicas).toBe(7);
    const o = owners(d);
    expect(o['kubectl/Update/scale']).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(o['hpa/Update/scale']).toBeUndefined();
  });

  any('4: client-side apply, then another applier with the same label value; when it drops the label, the label stays', async () => {
    const cm = (labels: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  labels: {${labels}}\ndata: {a: "1"}\n`;
    expect(await k.ok(['apply', '-f', '-'], { input: cm('team: a, tier: web') })).toBe('configmap/cfg created\n');
    let obj = await k.getJson('cm', 'cfg');
    expect(obj.metadata['annotations']['kubectl.kubernetes.io/last-applied-configuration']).toContain('"tier":"web"');
    expect(Object.keys(owners(obj))).toEqual(['kubectl-client-side-apply/Update']);

    // Another client-side apply: kubectl computes a strategic merge patch.
    expect(await k.ok(['apply', '-f', '-'], { input: cm('team: a, tier: api') })).toBe('configmap/cfg configured\n');
    obj = await k.getJson('cm', 'cfg');
    expect(obj.metadata['labels']).toEqual({ team: 'a', tier: 'api' });

    // A controller applies the same label value (server-side apply over HTTP, as a controller would).
    const url = `${k.sandbox.url}/api/v1/namespaces/default/configmaps/cfg?fieldManager=flux`;
    const apply = (body: string) => fetch(url, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body });
    let res = await apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  labels: {tier: api}\n');
    expect(res.status).toBe(200);
    obj = await k.getJson('cm', 'cfg');
    expect(owners(obj)['flux/Apply']).toEqual({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
    res = await apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n');
    expect(res.status).toBe(200);
    obj = await k.getJson('cm', 'cfg');
    expect(obj.metadata['labels']).toEqual({ team: 'a', tier: 'api' });
    expect(owners(obj)['flux/Apply']).toBeUndefined();
    expect(owners(obj)['kubectl-client-side-apply/Update']).toMatchObject({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
  });

  itWithKubectl(26, "kubectl's client-side → server-side apply migration")('4b: client-side apply then apply --server-side migrates the kubectl-client-side-apply entry into kubectl', async () => {
    await k.ok(['apply', '-f', '-'], { input: deployment(2) });
    let d = await k.getJson('deployment', 'web');
    expect(Object.keys(owners(d))).toEqual(['kubectl-client-side-apply/Update']);
    expect(JSON.stringify(owners(d)['kubectl-client-side-apply/Update'])).toContain('f:progressDeadlineSeconds');
    expect(await k.ok(['apply', '--server-side', '-f', '-'], { input: deployment(2) })).toBe('deployment.apps/web serverside-applied\n');
    d = await k.getJson('deployment', 'web');
    // kubectl first adopts the annotation as kubectl-last-applied, then folds the client-side
    // applier's entry into its Apply entry (kubectl's csaupgrade): no kubectl-client-side-apply left.
    expect(Object.keys(owners(d))).toEqual(['kubectl-last-applied/Apply', 'kubectl/Apply']);
    expect(owners(d)['kubectl-last-applied/Apply']).toEqual({ 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } } });
    // kubectl re-applies after the migration, so its set ends as exactly what the config names;
    // the defaults the client-side applier owned were pruned and defaulted again (owned by nobody).
    expect(owners(d)['kubectl/Apply']).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
    expect(d['spec'].progressDeadlineSeconds).toBe(600);
    expect(d.metadata['annotations']['kubectl.kubernetes.io/last-applied-configuration']).toContain('"replicas":2');
  });

  any('client-side apply sends strategic merge patches ($setElementOrder, deletions by merge key) that land as on a real cluster', async () => {
    const v1 = `apiVersion: apps/v1
kind: Deployment
metadata: {name: csa, labels: {a: "1"}}
spec:
  replicas: 2
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 2}}
  selector: {matchLabels: {app: csa}}
  template:
    metadata: {labels: {app: csa}}
    spec:
      containers:
      - {name: a, image: "a:1", env: [{name: EX, value: "1"}, {name: WY, value: "2"}], ports: [{containerPort: 80}]}
      - {name: b, image: "b:1"}
      volumes: [{name: v, emptyDir: {}}]
`;
    const v2 = `apiVersion: apps/v1
kind: Deployment
metadata: {name: csa}
spec:
  replicas: 3
  strategy: {type: Recreate}
  selector: {matchLabels: {app: csa}}
  template:
    metadata: {labels: {app: csa}}
    spec:
      containers:
      - {name: b, image: "b:2"}
      - {name: a, image: "a:1", env: [{name: WY, value: "3"}], ports: [{containerPort: 80}, {containerPort: 81, protocol: UDP}]}
      volumes: [{name: w, configMap: {name: cm}}]
`;
    await k.ok(['apply', '-f', '-'], { input: v1 });
    expect(await k.ok(['apply', '-f', '-'], { input: v2 })).toBe('deployment.apps/csa configured\n');
    const d = await k.getJson('deployment', 'csa');
    expect(d.metadata['labels']).toBeUndefined();
    expect(d['spec'].replicas).toBe(3);
    expect(d['spec'].strategy).toEqual({ type: 'Recreate' });
    const pod = d['spec'].template.spec;
    expect(pod.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual(['b=b:2', 'a=a:1']);
    expect(pod.containers[1].env).toEqual([{ name: 'WY', value: '3' }]);
    expect(pod.containers[1].ports).toEqual([
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 81, protocol: 'UDP' },
    ]);
    expect(pod.volumes).toEqual([{ name: 'w', configMap: { name: 'cm', defaultMode: 420 } }]);
    const csa = JSON.stringify(owners(d)['kubectl-client-side-apply/Update']);
    expect(csa).toContain('"k:{\\"containerPort\\":81,\\"protocol\\":\\"UDP\\"}"');
    expect(csa).toContain('"k:{\\"name\\":\\"w\\"}"');
    expect(csa).not.toContain('"k:{\\"name\\":\\"EX\\"}"');
    expect(csa).not.toContain('f:rollingUpdate');
  });

  any('5: create deployment, edit, label, annotate, delete and get -w leave the managers a real apiserver leaves', async () => {
    expect(await k.ok(['create', 'deployment', 'web', '--image=nginx:1.25'])).toBe('deployment.apps/web created\n');
    let d = await k.getJson('deployment', 'web');
    const created = owners(d)['kubectl-create/Update'] as Record<string, any>;
    expect(created['f:spec']['f:replicas']).toEqual({});
    expect(created['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']).toMatchObject({ 'f:image': {}, 'f:imagePullPolicy': {}, 'f:terminationMessagePath': {} });

    const editor = join(mkdtempSync(join(tmpdir(), 'editor-')), 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/replicas: 1/replicas: 4/" "$1"\n', { mode: 0o755 });
    expect(await k.ok(['edit', 'deployment', 'web'], { env: { EDITOR: editor, KUBE_EDITOR: editor } })).toBe('deployment.apps/web edited\n');
    expect(await k.ok(['patch', 'deployment', 'web', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.26"}]}}}}'])).toBe(
      'deployment.apps/web patched\n',
    );
    expect(await k.ok(['label', 'deployment', 'web', 'tier=web'])).toBe('deployment.apps/web labeled\n');
    expect(await k.ok(['annotate', 'deployment', 'web', 'note=hi'])).toBe('deployment.apps/web annotated\n');
    d = await k.getJson('deployment', 'web');
    expect(d['spec'].replicas).toBe(4);
    const o = owners(d);
    expect(o['kubectl-edit/Update']).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(o['kubectl-patch/Update']).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { 'f:image': {} } } } } } });
    expect(d['spec'].template.spec.containers[0].image).toBe('nginx:1.26');
    expect(o['kubectl-label/Update']).toEqual({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
    expect(o['kubectl-annotate/Update']).toEqual({ 'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } } });
    expect(JSON.stringify(o['kubectl-create/Update'])).not.toContain('f:replicas');
    expect(d.metadata['generation']).toBe(3);

    const watch = k.kubectl(['get', 'configmaps', '-w', '--request-timeout=4s', '-o', 'name']);
    await new Promise((r) => setTimeout(r, 1000));
    await k.ok(['create', 'configmap', 'w1', '--from-literal=a=b']);
    expect(await k.ok(['delete', 'deployment', 'web'])).toBe('deployment.apps "web" deleted\n');
    await k.ok(['delete', 'configmap', 'w1']);
    const w = await watch;
    expect(w.stdout).toBe('configmap/w1\nconfigmap/w1\n');
    const gone = await k.kubectl(['get', 'deployment', 'web']);
    expect(gone.stderr).toBe('Error from server (NotFound): deployments.apps "web" not found\n');
  });

  itWithKubectl(27, 'explain from OpenAPI v3')('explain deployment.spec.replicas reads the OpenAPI v3 generated from the engine schema', async () => {
    const out = await k.ok(['explain', 'deployment.spec.replicas']);
    expect(out).toContain('GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n');
    expect(out).toContain('FIELD: replicas <integer>');
  });

  any('a CRD with x-kubernetes-list-type: map lets two managers own different list items; deleting it stops serving', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Second-Port, type: integer, jsonPath: ".spec.ports[1].port"}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties: {name: {type: string}, port: {type: integer}}
`;
    await k.ok(['apply', '-f', '-'], { input: crd });
    const widget = (name: string, port: number) => `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  ports: [{name: ${name}, port: ${port}}]\n`;
    await k.ok(['apply', '--server-side', '--field-manager=a', '-f', '-'], { input: widget('http', 80) });
    await k.ok(['apply', '--server-side', '--field-manager=b', '-f', '-'], { input: widget('https', 443) });
    const w = await k.getJson('wd', 'w');
    expect(w['spec'].ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ]);
    expect(owners(w)).toEqual({
      'a/Apply': { 'f:spec': { 'f:ports': { 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } },
      'b/Apply': { 'f:spec': { 'f:ports': { 'k:{"name":"https"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } },
    });
    expect(await k.ok(['get', 'widgets'])).toMatch(/^NAME   SECOND-PORT   AGE\nw      443           \d+s\n$/);
    await k.ok(['delete', 'crd', 'widgets.example.com']);
    const res = await fetch(`${k.sandbox.url}/apis/example.com/v1/namespaces/default/widgets`);
    expect(res.status).toBe(404);
  });
});

describe('the sandbox over HTTPS (generated certificate trusted by the kubeconfig)', () => {
  any('serves kubectl with TLS verification on', async () => {
    const k = await KubectlSandbox.start({ tls: true });
    try {
      expect(k.sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await k.ok(['apply', '--server-side', '-f', '-'], { input: POD })).toBe('pod/web serverside-applied\n');
      expect(await k.ok(['get', 'pods', '-o', 'name'])).toBe('pod/web\n');
    } finally {
      await k.close();
    }
  });
});
