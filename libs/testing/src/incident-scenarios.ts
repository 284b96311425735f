import type { KubectlResult, KubectlSandbox } from './kubectl-sandbox.js';

// The writes of issue 7's incidents, shared by the specs that ask questions about them. Imported by
// path, like kubectl-sandbox.ts, whose sandbox they write to.

export const configMapManifest = (ns: string, labels: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\n  namespace: ${ns}\n  labels: ${JSON.stringify(labels)}\ndata: {LOG_LEVEL: info}\n`;

export const podManifest = (ns: string, image: string) => `apiVersion: v1
kind: Pod
metadata: {name: nginx, namespace: ${ns}, labels: {app: nginx}}
spec:
  containers:
  - name: nginx-container
    image: ${image}
    ports: [{containerPort: 80}]
`;

export const deploymentManifest = (ns: string, image: string, replicas?: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: ${image}}]
`;

/** The Pod's image field as kubectl paths name it. */
export const POD_IMAGE = '.spec.containers[name="nginx-container"].image';
/** The ghost label of incident 1. */
export const GHOST_LABEL = '.metadata.labels.test-data';

/** A controller's server-side apply over HTTP (as controller-runtime sends it, no kubectl in between). */
export async function controllerApply(k: KubectlSandbox, path: string, name: string, manager: string, manifest: string): Promise<void> {
  const r = await fetch(`${k.sandbox.url}${path}/${name}?fieldManager=${manager}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/apply-patch+yaml' },
    body: manifest,
  });
  if (r.status !== 200) throw new Error(`apply as ${manager}: ${r.status} ${await r.text()}`);
}

/**
 * Incident 1's ghost label in namespace `ns`: kubectl creates the ConfigMap client-side with the label;
 * flux applies it server-side over HTTP, then applies it without the label: flux released the label,
 * kubectl-client-side-apply still owns it. (Not `kubectl apply --server-side --field-manager=flux-controller`:
 * kubectl would fold the client-side entry into flux's (its csa→ssa migration), and no ghost is left.)
 */
export async function writeGhostLabel(k: KubectlSandbox, ns: string): Promise<{ created: string }> {
  await k.ok(['create', 'namespace', ns]);
  const created = await k.ok(['apply', '-f', '-'], { input: configMapManifest(ns, { app: 'shop', 'test-data': 'true' }) });
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  await controllerApply(k, cms, 'app-config', 'flux-controller', configMapManifest(ns, { app: 'shop', 'test-data': 'true' }));
  await controllerApply(k, cms, 'app-config', 'flux-controller', configMapManifest(ns, { app: 'shop' }));
  return { created };
}

/**
 * Incident 2 in namespace `ns`: kubectl applies the Pod (nginx:1.16), `kubectl set image` takes the
 * image (1.17), kubectl's next apply conflicts (answered), and it forces the image back (`forcedImage`).
 */
export async function writeImageTakenAndForcedBack(k: KubectlSandbox, ns: string, forcedImage = 'nginx:1.16'): Promise<{ conflict: KubectlResult }> {
  await k.ok(['create', 'namespace', ns]);
  await k.ok(['apply', '--server-side', '-f', '-'], { input: podManifest(ns, 'nginx:1.16') });
  await k.ok(['set', 'image', 'pod/nginx', 'nginx-container=nginx:1.17', '-n', ns]);
  const conflict = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: podManifest(ns, forcedImage) });
  await k.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: podManifest(ns, forcedImage) });
  return { conflict };
}
