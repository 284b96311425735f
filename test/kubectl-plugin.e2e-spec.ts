import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { SANDBOX_ADMIN_TOKEN } from '../libs/sandbox/src/index.js';
import type { ListFindingsResponseDto } from '../apps/api/src/findings.dto.js';
import type { FieldHistoryResponseDto, FieldResponseDto, ListObjectsResponseDto } from '../apps/api/src/objects.dto.js';
import { KUBECTL, itWithKubectl } from '../libs/testing/src/kubectl-sandbox.js';
import { useBuiltService } from '../libs/testing/src/use-built-service.js';
import { runProcess, waitFor, type ProcessResult } from '../libs/testing/src/index.js';
import { GHOST_LABEL, POD_IMAGE, configMapManifest, deploymentManifest, writeGhostLabel, writeImageTakenAndForcedBack } from '../libs/testing/src/incident-scenarios.js';

// `kubectl ssa-audit …` end to end: the REAL kubectl finds the plugin on PATH (bin/, the built
// dist/), the plugin resolves TYPE/NAME through the sandbox's discovery and asks the BUILT service,
// which watches the sandbox and authenticates every request with a TokenReview (AUTH_MODE=kubernetes):
// the plugin sends the kubeconfig user's token, as it would against a real cluster.

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const LONG = 240_000;

describe('kubectl ssa-audit (the kubectl plugin) against the sandbox and the built service', () => {
  const e2e = useBuiltService('kubectl_plugin', { AUTH_MODE: 'kubernetes', API_HOST: '127.0.0.1' });

  /** The environment kubectl runs the plugin in: bin/ on PATH, the sandbox's kubeconfig, the service's URL. */
  const pluginEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const { NODE_OPTIONS: _n, NO_COLOR: _c, ...inherited } = process.env;
    return { ...inherited, PATH: `${ROOT}/bin:${process.env['PATH']}`, KUBECONFIG: e2e.k.kubeconfig, SSA_AUDIT_SERVER: e2e.service.url, ...extra };
  };
  /** `kubectl ssa-audit <args>` through the real kubectl. */
  const plugin = (args: readonly string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<ProcessResult> =>
    runProcess(KUBECTL, ['ssa-audit', ...args], { env: pluginEnv(opts.env), input: opts.input });
  /** `kubectl <args>` with the same environment (no --kubeconfig flag: the plugin's own way). */
  const kubectl = (args: readonly string[], input: string): Promise<ProcessResult> => runProcess(KUBECTL, args, { env: pluginEnv(), input });

  /** The field's history through the plugin once the projection has `n` transitions. */
  const historyOf = (object: string, path: string, ns: string, n: number) =>
    waitFor(`${n} transitions of ${object} ${path}`, async () => {
      const r = await plugin(['history', object, path, '-n', ns, '-o', 'json']);
      if (r.code === 3) return undefined; // not tracked yet
      if (r.code !== 0) throw new Error(`history exited ${r.code}: ${r.stderr}`);
      const h = JSON.parse(r.stdout) as FieldHistoryResponseDto;
      return h.transitions.length >= n ? h : undefined;
    }, 60_000, 300);

  itWithKubectl(18, 'server-side apply', LONG)('ghost label: who-owns names kubectl-client-side-apply, why prints the cause and remedies; -o json parses', async () => {
    const ns = 'plugin-ghost';
    await writeGhostLabel(e2e.k, ns);
    await historyOf('configmap/app-config', GHOST_LABEL, ns, 3);

    const who = await plugin(['who-owns', 'configmap/app-config', GHOST_LABEL, '-n', ns]);
    expect(who).toMatchObject({ code: 0, stderr: '' });
    const [heading, field, ...rest] = who.stdout.split('\n');
    expect(heading).toMatch(new RegExp(`^configmap/app-config -n ${ns}  as of `));
    expect(field).toMatch(/^\.metadata\.labels\.test-data = "true"  kubectl-client-side-apply \(Update\) since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+00:00$/);
    expect(rest).toEqual(['']);
    // Not on a terminal: no colour escapes.
    expect(who.stdout).not.toContain('\u001b[');

    // Short names and group-qualified names resolve as kubectl resolves them; -o json is the service's answer.
    for (const type of ['cm', 'configmaps', 'ConfigMap']) {
      const json = await plugin(['who-owns', `${type}/app-config`, GHOST_LABEL, '-n', ns, '-o', 'json']);
      expect(json.code).toBe(0);
      const answer = JSON.parse(json.stdout) as FieldResponseDto;
      expect(answer.present).toBe(true);
      expect(answer.owners.map((o) => o.manager)).toEqual(['kubectl-client-side-apply']);
    }

    const why = await plugin(['why', 'cm/app-config', GHOST_LABEL, '-n', ns]);
    expect(why).toMatchObject({ code: 0, stderr: '' });
    expect(why.stdout).toContain('cause: co-owned-after-release (also: client-side-apply-leftover)');
    expect(why.stdout).toContain('still owned by: kubectl-client-side-apply (Update)');
    expect(why.stdout).toMatch(/^released by: flux-controller \(Apply\)/m);
    expect(why.stdout).toContain(`1. csa-migration: `);
    expect(why.stdout).toContain(`   $ kubectl apply --server-side -n ${ns} -f <manifest without ${GHOST_LABEL}>\n`);
    expect(why.stdout).toContain(`   $ kubectl label configmap/app-config -n ${ns} test-data-\n`);
    const whyYaml = await plugin(['why', 'cm/app-config', GHOST_LABEL, '-n', ns, '-o', 'yaml']);
    expect(whyYaml.stdout).toMatch(/^cause: co-owned-after-release$/m);
  });

  itWithKubectl(18, 'server-side apply', LONG)("credentials: an exec credential plugin's token is forwarded and the context's namespace applies; a client certificate is refused with advice", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-kubeconfig-'));
    try {
      const script = join(dir, 'credential.sh');
      const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: SANDBOX_ADMIN_TOKEN } };
      writeFileSync(script, `#!/bin/sh\necho '${JSON.stringify(credential)}'\n`, { mode: 0o755 });
      const kubeconfig = (name: string, user: Record<string, unknown>) => {
        const file = join(dir, name);
        const cluster = { name: 'sandbox', cluster: { server: e2e.k.sandbox.url } };
        const context = { name: 'ctx', context: { cluster: 'sandbox', user: 'me', namespace: 'plugin-ghost' } };
        writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'Config', clusters: [cluster], users: [{ name: 'me', user }], contexts: [context], 'current-context': 'ctx' }));
        return file;
      };
      const exec = kubeconfig('exec', { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: script, interactiveMode: 'Never' } });
      const cert = kubeconfig('cert', { 'client-certificate-data': Buffer.from('cert').toString('base64'), 'client-key-data': Buffer.from('key').toString('base64') });

      // No -n: the context's namespace (plugin-ghost, written by the first test).
      const viaExec = await plugin(['who-owns', 'cm/app-config', GHOST_LABEL, '-o', 'json'], { env: { KUBECONFIG: exec } });
      expect(viaExec).toMatchObject({ code: 0, stderr: '' });
      expect((JSON.parse(viaExec.stdout) as FieldResponseDto).owners.map((o) => o.manager)).toEqual(['kubectl-client-side-apply']);

      const viaCert = await plugin(['who-owns', 'cm/app-config', GHOST_LABEL], { env: { KUBECONFIG: cert } });
      expect(viaCert.code).toBe(1);
      expect(viaCert.stderr).toContain('client certificate');
      expect(viaCert.stderr).toContain('kubectl create token');
      // --token wins over the kubeconfig.
      expect((await plugin(['who-owns', 'cm/app-config', GHOST_LABEL, '--token', SANDBOX_ADMIN_TOKEN], { env: { KUBECONFIG: cert } })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  itWithKubectl(18, 'server-side apply', LONG)('errors and exit codes: a wrong path is 1, an unknown object or type 3, bad usage 2', async () => {
    const ns = 'plugin-errors';
    await writeGhostLabel(e2e.k, ns);
    await historyOf('configmap/app-config', GHOST_LABEL, ns, 1);

    const badPath = await plugin(['who-owns', 'cm/app-config', '.metadata.labels[', '-n', ns]);
    expect(badPath).toMatchObject({ code: 1, stdout: '' });
    expect(badPath.stderr).toMatch(/^error: invalid-path: /);

    const unknown = await plugin(['who-owns', 'cm/no-such-config', GHOST_LABEL, '-n', ns]);
    expect(unknown).toEqual({ code: 3, stdout: '', stderr: `error: configmap/no-such-config -n ${ns} is not tracked by the ssa-audit service\n` });
    expect(await plugin(['why', 'frobnicators/x', '.spec', '-n', ns])).toEqual({ code: 3, stdout: '', stderr: 'error: the server doesn\'t have a resource type "frobnicators"\n' });
    const absent = await plugin(['who-owns', 'cm/app-config', '.metadata.labels.nothing-here', '-n', ns]);
    expect(absent.code).toBe(3);

    for (const args of [['who-owns', 'cm/app-config'], ['who-owns', 'app-config', GHOST_LABEL], ['who-owns', 'cm/app-config', GHOST_LABEL, '-o', 'xml'], ['frobnicate'], ['findings', '--no-such-flag']]) {
      const r = await plugin(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(/error/);
    }
    expect((await plugin(['--help'])).code).toBe(0);

    // No --server: the plugin looks for the Service of deploy/ in the current context (the sandbox runs none).
    const noService = await plugin(['findings'], { env: { SSA_AUDIT_SERVER: '' } });
    expect(noService.code).toBe(1);
    expect(noService.stderr).toContain('Service ssa-audit/ssa-audit-api');
  });

  itWithKubectl(18, 'server-side apply', LONG)('history of the Pod image shows kubectl-set taking it and kubectl forcing it back', async () => {
    const ns = 'plugin-image';
    await writeImageTakenAndForcedBack(e2e.k, ns);
    await historyOf('pod/nginx', POD_IMAGE, ns, 3);
    const h = await plugin(['history', 'po/nginx', POD_IMAGE, '-n', ns]);
    expect(h).toMatchObject({ code: 0, stderr: '' });
    const lines = h.stdout.split('\n');
    expect(lines[0]).toBe(`pod/nginx -n ${ns}  ${POD_IMAGE}`);
    // Times in local time (TZ=UTC here), then the transition, who, and the value after it.
    expect(lines.slice(1).map((l) => l.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+00:00  /, ''))).toEqual([
      'acquired  kubectl (Apply)  → "nginx:1.16"',
      'taken     kubectl-set (Update)  → "nginx:1.17"',
      // The service's note on the forced transition, printed as it comes.
      'forced    kubectl (Apply)  → "nginx:1.16"  [force-inferred]',
      '',
    ]);
  });

  itWithKubectl(24, '--subresource', LONG)('simulate prints exactly what kubectl apply --server-side prints (conflict: stderr and exit code; forced: stdout)', async () => {
    const ns = 'plugin-simulate';
    await e2e.k.ok(['create', 'namespace', ns]);
    await e2e.k.ok(['apply', '--server-side', '--field-manager=ci-tool', '-f', '-'], { input: deploymentManifest(ns, 'nginx:1.25', 2) });
    await e2e.k.ok(['scale', 'deployment', 'web', '-n', ns, '--replicas=4']);
    await e2e.k.ok(['set', 'image', 'deployment/web', 'app=nginx:1.26', '-n', ns]);
    await historyOf('deploy/web', '.spec.template.spec.containers[name="app"].image', ns, 2);
    await historyOf('deployments.apps/web', '.spec.replicas', ns, 2);

    // The same manifest, the same flags: predicted, then really applied.
    const manifest = deploymentManifest(ns, 'nginx:1.25', 2);
    const predicted = await plugin(['simulate', '-f', '-', '--field-manager', 'ci-tool'], { input: manifest });
    const real = await kubectl(['apply', '--server-side', '--field-manager=ci-tool', '-f', '-'], manifest);
    expect(real.code).toBe(1);
    expect(real.stderr).toContain('Apply failed with 2 conflicts');
    expect(predicted).toEqual(real);

    // Several objects, the first conflicting: kubectl goes on past it (the ConfigMap on stdout), the conflict on stderr.
    const several = `${manifest}---\n${configMapManifest(ns, { app: 'web' })}`;
    const predictedSeveral = await plugin(['simulate', '-f', '-', '--field-manager', 'ci-tool'], { input: several });
    const realSeveral = await kubectl(['apply', '--server-side', '--field-manager=ci-tool', '-f', '-'], several);
    expect(realSeveral.stdout).toBe('configmap/app-config serverside-applied\n');
    expect(predictedSeveral).toEqual(realSeveral);

    const json = await plugin(['simulate', '-f', '-', '--field-manager', 'ci-tool', '-o', 'json'], { input: manifest });
    const answer = JSON.parse(json.stdout) as { items: { object: string; conflicts: { manager: string; path: string }[] }[] };
    expect(answer.items.map((i) => [i.object, i.conflicts.map((c) => c.manager)])).toEqual([['deployment.apps/web', ['kubectl', 'kubectl-set']]]);

    // Forced: kubectl's line on stdout, byte for byte, then the prediction as # comments.
    const forcedPrediction = await plugin(['simulate', '-f', '-', '--field-manager', 'ci-tool', '--force-conflicts'], { input: manifest });
    const forced = await kubectl(['apply', '--server-side', '--field-manager=ci-tool', '--force-conflicts', '-f', '-'], manifest);
    expect(forced).toEqual({ code: 0, stdout: 'deployment.apps/web serverside-applied\n', stderr: '' });
    expect(forcedPrediction.code).toBe(0);
    expect(forcedPrediction.stderr).toBe('');
    expect(forcedPrediction.stdout.startsWith(forced.stdout)).toBe(true);
    expect(forcedPrediction.stdout.slice(forced.stdout.length)).toMatch(/^(#.*\n)*$/);
  });

  itWithKubectl(18, 'server-side apply', LONG)("findings: the ghost label's client-side-apply leftover, in its namespace; ui --no-browser prints a URL whose proxy answers /v1 with the kubeconfig credentials", async () => {
    // The ghost label of the first test (plugin-ghost): kubectl-client-side-apply still owns what flux released.
    const f = await plugin(['findings', '-A', '-o', 'json']);
    expect(f).toMatchObject({ code: 0, stderr: '' });
    const all = JSON.parse(f.stdout) as Pick<ListFindingsResponseDto, 'items'>;
    expect(Object.keys(all)).toEqual(['items']);
    expect(all.items).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'client-side-apply-leftover', namespace: 'plugin-ghost', name: 'app-config', path: GHOST_LABEL })]));
    const ghost = await plugin(['findings', '-n', 'plugin-ghost']);
    expect(ghost).toMatchObject({ code: 0, stderr: '' });
    // Findings grouped under `kind/name -n ns` headings: only plugin-ghost's.
    const headings = ghost.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('  '));
    expect(headings).toContain('configmap/app-config -n plugin-ghost');
    expect(headings.every((h) => h.endsWith(' -n plugin-ghost'))).toBe(true);
    expect(ghost.stdout).toContain(`\n  client-side-apply-leftover  ${GHOST_LABEL}  kubectl-client-side-apply (Update), flux-controller (Apply)\n`);

    // The service itself refuses a request without a token...
    expect((await fetch(`${e2e.service.url}/v1/objects?limit=1`)).status).toBe(401);
    const child = spawn(KUBECTL, ['ssa-audit', 'ui', '--no-browser'], { env: pluginEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const url = await waitFor('the ui URL', async () => (out.includes('\n') ? out.split('\n')[0] : undefined), 30_000, 100);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ui\/$/);
      // ...the proxy adds the kubeconfig user's token to every request.
      const r = await fetch(new URL('/v1/objects?limit=500', url));
      expect(r.status).toBe(200);
      const body = (await r.json()) as ListObjectsResponseDto;
      expect(body.items).toEqual(expect.arrayContaining([expect.objectContaining({ namespace: 'plugin-ghost', name: 'app-config' })]));
    } finally {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });
});
