import { isDeepStrictEqual } from 'node:util';
import type { ListFindingsResponseDto } from '../apps/api/src/findings.dto.js';
import type {
  ExplainResponseDto,
  FieldHistoryResponseDto,
  FieldResponseDto,
  ListObjectsResponseDto,
  TransitionsResponseDto,
} from '../apps/api/src/objects.dto.js';
import type { ReplayResponseDto, ReplayStatusResponseDto } from '../apps/api/src/replays.dto.js';
import type { SimulateApplyResponseDto } from '../apps/api/src/simulate.dto.js';
import { itWithKubectl } from '../libs/testing/src/kubectl-sandbox.js';
import { useBuiltService } from '../libs/testing/src/use-built-service.js';
import { runProcess, waitFor, type ProcessResult } from '../libs/testing/src/index.js';
import { GHOST_LABEL, POD_IMAGE, configMapManifest, controllerApply, deploymentManifest, writeGhostLabel, writeImageTakenAndForcedBack } from '../libs/testing/src/incident-scenarios.js';

// Issue 7's incidents end to end: the real kubectl drives the sandbox API server, the BUILT service
// (`node dist/apps/main.js all`, Postgres + Redis) watches it, and every assertion is on an API answer.

const LONG = 240_000; // one incident: several kubectl runs and projection waits on a small shared machine

describe('issue 7 incidents through the real pipeline (kubectl → sandbox → watcher → worker → API)', () => {
  const e2e = useBuiltService('incidents');

  // --- API and kubectl helpers -------------------------------------------------------------------

  const api = <T>(path: string, init?: RequestInit) => e2e.service.api<T>(path, init);
  const q = (path: string) => `path=${encodeURIComponent(path)}`;
  const history = (id: string, path: string, at?: string) => api<FieldHistoryResponseDto>(`/v1/objects/${id}/fields/history?${q(path)}${at ? `&at=${at}` : ''}`);
  const field = (id: string, path: string, at?: string) => api<FieldResponseDto>(`/v1/objects/${id}/fields?${q(path)}${at ? `&at=${encodeURIComponent(at)}` : ''}`);
  const explain = (id: string, path: string) => api<ExplainResponseDto>(`/v1/objects/${id}/explain?${q(path)}`);
  const findings = async (type: string) => (await api<ListFindingsResponseDto>(`/v1/findings?type=${type}&limit=500`)).items;
  const kinds = (ts: FieldHistoryResponseDto['transitions']) => ts.map((t) => `${t.type} ${t.manager}`);

  /** The API's id of an object, once the watcher has reported it. */
  const objectId = (kind: string, namespace: string, name: string) =>
    waitFor(
      `${kind} ${namespace}/${name} in the API`,
      async () => (await api<ListObjectsResponseDto>(`/v1/objects?kind=${kind}&namespace=${namespace}&name=${name}`)).items[0],
      60_000,
      250,
    );

  /** The field's history once it has `n` transitions (the projection caught up with n writes). */
  const historyOf = (id: string, path: string, n: number) =>
    waitFor(`${n} transitions of ${path}`, async () => {
      const h = await history(id, path);
      return h.transitions.length >= n ? h : undefined;
    }, 60_000, 250);

  /** Runs a remedy's shell command (KUBECONFIG points at the sandbox), `input` on stdin. */
  const sh = (command: string, input: string): Promise<ProcessResult> => runProcess('sh', ['-c', command], { input, env: { ...process.env, KUBECONFIG: e2e.k.kubeconfig } });

  // --- the incidents -----------------------------------------------------------------------------

  const withoutLabel = (ns: string) => configMapManifest(ns, { app: 'shop' });
  const labels = async (ns: string) => (await e2e.k.getJson('configmap', 'app-config', '-n', ns)).metadata['labels'];

  /** Incident 1's ghost label in namespace `ns`, and the API's explanation of it. */
  async function ghostLabel(ns: string): Promise<{ id: string; x: ExplainResponseDto }> {
    // flux applies server-side over HTTP as controller-runtime does (see writeGhostLabel).
    expect((await writeGhostLabel(e2e.k, ns)).created).toBe('configmap/app-config created\n');
    expect(await labels(ns)).toEqual({ app: 'shop', 'test-data': 'true' });

    const { id } = await objectId('ConfigMap', ns, 'app-config');
    const h = await historyOf(id, GHOST_LABEL, 3);
    expect(kinds(h.transitions)).toEqual(['acquired kubectl-client-side-apply', 'shared flux-controller', 'kept flux-controller']);

    const x = await explain(id, GHOST_LABEL);
    expect(x.present).toBe(true);
    expect(x.cause).toBe('co-owned-after-release');
    expect(x.causes).toContain('client-side-apply-leftover');
    expect(x.releasedBy).toMatchObject({ manager: 'flux-controller', operation: 'Apply', seq: h.transitions[2]!.seq });
    expect(x.remainingOwners).toEqual([expect.objectContaining({ manager: 'kubectl-client-side-apply', operation: 'Update', subresource: '' })]);
    expect(x.remedies.map((r) => r.kind).slice(0, 3)).toEqual(['csa-migration', 'delete-field', 'remove-managed-fields-entry']);
    return { id, x };
  }

  /** The explanation once the projection has caught up with a change (`until` holds). */
  const explainUntil = (id: string, what: string, until: (e: ExplainResponseDto) => boolean) =>
    waitFor(`explain: ${what}`, async () => {
      const e = await explain(id, GHOST_LABEL);
      return until(e) ? e : undefined;
    }, 60_000, 250);

  // kubectl's own csa→ssa migration (1.26+) is what the csa-migration remedy relies on.
  itWithKubectl(26, "kubectl's client-side → server-side apply migration", LONG)(
    '1. ghost label: explain says co-owned-after-release, and its remedy run with kubectl really removes the label',
    async () => {
      const ns = 'incident-ghost';
      const { id, x } = await ghostLabel(ns);
      // The csa-migration remedy: its one placeholder is the manifest, here the desired state (no label) on stdin.
      const remedy = x.remedies.find((r) => r.kind === 'csa-migration');
      expect(remedy?.command).toBe(`kubectl apply --server-side -n ${ns} -f <manifest without ${GHOST_LABEL}>`);
      const ran = await sh(remedy!.command!.replace(`<manifest without ${GHOST_LABEL}>`, '-'), withoutLabel(ns));
      expect(ran).toMatchObject({ code: 0, stderr: '' });
      expect(await labels(ns)).toEqual({ app: 'shop' });
      const after = await explainUntil(id, 'the label is gone', (e) => !e.present);
      // kubectl folded the client-side entry into its own, then its apply without the label pruned it.
      expect(after).toMatchObject({ present: false, cause: 'pruned', releasedBy: { manager: 'kubectl', operation: 'Apply' }, remainingOwners: [] });
    },
  );

  itWithKubectl(18, 'server-side apply', LONG)(
    "1b. ghost label: the managedFields-entry patch does what its summary says (label kept, owned by nobody, flux's next apply keeps it); delete-field removes it",
    async () => {
      const ns = 'incident-ghost-patch';
      const { id, x } = await ghostLabel(ns);
      const patch = x.remedies.find((r) => r.kind === 'remove-managed-fields-entry')!;
      expect(patch.summary).toContain(`${GHOST_LABEL} stays in the object, owned by nobody; no apply prunes it`);
      expect(await sh(patch.command!, '')).toMatchObject({ code: 0 });
      // What kubectl shows: the label is still there and no entry owns it...
      const cm = await e2e.k.getJson('configmap', 'app-config', '-n', ns);
      expect(cm.metadata['labels']).toEqual({ app: 'shop', 'test-data': 'true' });
      const entries = cm.metadata['managedFields'] as { manager: string; fieldsV1: { 'f:metadata'?: { 'f:labels'?: Record<string, unknown> } } }[];
      expect(entries.map((e) => e.manager)).toEqual(['flux-controller']);
      expect(entries.some((e) => e.fieldsV1['f:metadata']?.['f:labels']?.['f:test-data'] !== undefined)).toBe(false);
      // ...and flux's next apply does not prune it: flux had released it already.
      await controllerApply(e2e.k, `/api/v1/namespaces/${ns}/configmaps`, 'app-config', 'flux-controller', withoutLabel(ns));
      expect(await labels(ns)).toEqual({ app: 'shop', 'test-data': 'true' });
      const orphan = await explainUntil(id, 'nobody owns the label', (e) => e.remainingOwners.length === 0);
      expect(orphan).toMatchObject({ present: true, cause: 'orphan' });

      // The remedy that deletes it.
      const del = orphan.remedies.find((r) => r.kind === 'delete-field')!;
      expect(del.command).toBe(`kubectl label configmap/app-config -n ${ns} test-data-`);
      expect(await sh(del.command!, '')).toMatchObject({ code: 0 });
      expect(await labels(ns)).toEqual({ app: 'shop' });
      expect(await explainUntil(id, 'the label is gone', (e) => !e.present)).toMatchObject({ cause: 'removed', remainingOwners: [] });
    },
  );

  itWithKubectl(18, 'server-side apply', LONG)('2. image taken by kubectl set image and forced back: acquired → taken → forced, 1.16 → 1.17 → 1.16', async () => {
    const ns = 'incident-image';
    const { conflict } = await writeImageTakenAndForcedBack(e2e.k, ns);
    expect(conflict.code).toBe(1);

    const { id } = await objectId('Pod', ns, 'nginx');
    const h = await historyOf(id, POD_IMAGE, 3);
    expect(h.transitions.map((t) => [t.type, t.manager, t.operation])).toEqual([
      ['acquired', 'kubectl', 'Apply'],
      ['taken', 'kubectl-set', 'Update'],
      ['forced', 'kubectl', 'Apply'],
    ]);
    expect(h.values.map((v) => v.value)).toEqual(['nginx:1.16', 'nginx:1.17', 'nginx:1.16']);
  });

  itWithKubectl(24, '--subresource', LONG)('3. replicas taken through /scale: history says taken, findings say the applier will conflict, until it applies without replicas', async () => {
    const ns = 'incident-scale';
    await e2e.k.ok(['create', 'namespace', ns]);
    await e2e.k.ok(['apply', '--server-side', '-f', '-'], { input: deploymentManifest(ns, 'nginx:1.25', 2) });
    await e2e.k.ok(['patch', 'deployment', 'web', '-n', ns, '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":5}}', '--field-manager=horizontal-pod-autoscaler']);

    const { id } = await objectId('Deployment', ns, 'web');
    const h = await historyOf(id, '.spec.replicas', 2);
    expect(h.transitions.map((t) => [t.type, t.manager, t.operation, t.subresource])).toEqual([
      ['acquired', 'kubectl', 'Apply', ''],
      ['taken', 'horizontal-pod-autoscaler', 'Update', 'scale'],
    ]);
    expect(h.values.map((v) => v.value)).toEqual([2, 5]);
    const contested = (await findings('replicas-contested')).filter((f) => f.objectId === id);
    expect(contested).toEqual([
      expect.objectContaining({
        path: '.spec.replicas',
        managers: [
          { manager: 'horizontal-pod-autoscaler', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1' },
          { manager: 'kubectl', operation: 'Apply', subresource: '', apiVersion: 'apps/v1' },
        ],
      }),
    ]);

    // The applier ships a new image without replicas: no conflict, and nothing left to warn about.
    await e2e.k.ok(['apply', '--server-side', '-f', '-'], { input: deploymentManifest(ns, 'nginx:1.26') });
    await waitFor('the new image in the API', async () => (await field(id, '.spec.template.spec.containers[name="app"].image')).value === 'nginx:1.26', 60_000, 250);
    expect((await findings('replicas-contested,applier-will-conflict')).filter((f) => f.objectId === id)).toEqual([]);
    const replicas = await field(id, '.spec.replicas');
    expect(replicas.value).toBe(5);
    expect(replicas.owners.map((o) => o.manager)).toEqual(['horizontal-pod-autoscaler']);
  });

  itWithKubectl(24, '--subresource', LONG)("4. simulate/apply predicts exactly the conflict kubectl then gets", async () => {
    const ns = 'incident-simulate';
    await e2e.k.ok(['create', 'namespace', ns]);
    await e2e.k.ok(['apply', '--server-side', '--field-manager=ci-tool', '-f', '-'], { input: deploymentManifest(ns, 'nginx:1.25', 2) });
    await e2e.k.ok(['scale', 'deployment', 'web', '-n', ns, '--replicas=4']);
    await e2e.k.ok(['set', 'image', 'deployment/web', 'app=nginx:1.26', '-n', ns]);

    const obj = await objectId('Deployment', ns, 'web');
    await historyOf(obj.id, '.spec.template.spec.containers[name="app"].image', 2);
    await historyOf(obj.id, '.spec.replicas', 2);
    const manifest = deploymentManifest(ns, 'nginx:1.25', 2);
    const sim = await api<SimulateApplyResponseDto>('/v1/simulate/apply', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cluster: obj.cluster, manager: 'ci-tool', force: false, manifest }),
    });
    expect(sim.objectId).toBe(obj.id);
    expect(sim.conflicts).toEqual([
      { manager: 'kubectl', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1', path: '.spec.replicas' },
      // Conflicts are named as kubectl names them: no subresource is null, not "".
      { manager: 'kubectl-set', operation: 'Update', subresource: null, apiVersion: 'apps/v1', path: '.spec.template.spec.containers[name="app"].image' },
    ]);

    const r = await e2e.k.kubectl(['apply', '--server-side', '--field-manager=ci-tool', '-f', '-'], { input: manifest });
    expect(r.code).toBe(1);
    // kubectl prints the apiserver's message after "error: ", then its own advice paragraph.
    const advice = r.stderr.indexOf('\nPlease review the fields above');
    expect(advice).toBeGreaterThan(0);
    expect(r.stderr.slice(0, advice)).toBe(`error: ${sim.message}`);
  });

  itWithKubectl(18, 'server-side apply', LONG)('5. at= answers the state at earlier moments; a full replay gives identical answers', async () => {
    const ns = 'incident-at';
    await writeImageTakenAndForcedBack(e2e.k, ns, 'nginx:1.18');

    const { id } = await objectId('Pod', ns, 'nginx');
    const [acquired, taken, forced] = (await historyOf(id, POD_IMAGE, 3)).transitions;
    const at = async (a: string) => {
      const f = await field(id, POD_IMAGE, a);
      return [f.value, f.owners.map((o) => `${o.manager}/${o.operation}`)];
    };
    expect(await at(acquired!.seq)).toEqual(['nginx:1.16', ['kubectl/Apply']]);
    expect(await at(taken!.seq)).toEqual(['nginx:1.17', ['kubectl-set/Update']]);
    expect(await at(forced!.seq)).toEqual(['nginx:1.18', ['kubectl/Apply']]);
    expect(await at(taken!.at)).toEqual(['nginx:1.17', ['kubectl-set/Update']]);
    const before = await history(id, POD_IMAGE, taken!.seq);
    expect(before.transitions.map((t) => t.type)).toEqual(['acquired', 'taken']);

    // Every answer about every tracked object, before and after a full replay.
    const answers = async () => {
      const out: Record<string, unknown> = {
        findings: await api('/v1/findings?limit=500'),
        managers: await api('/v1/managers?limit=500'),
      };
      for (const o of (await api<ListObjectsResponseDto>('/v1/objects?limit=500')).items) {
        const ts = (await api<TransitionsResponseDto>(`/v1/objects/${o.id}/transitions?limit=500`)).items;
        out[`${o.id} transitions`] = ts;
        out[`${o.id} ownership`] = await api(`/v1/objects/${o.id}/ownership`);
        for (const p of new Set(ts.map((t) => t.path))) {
          out[`${o.id} history ${p}`] = await history(o.id, p);
          out[`${o.id} fields ${p}`] = await field(o.id, p);
          out[`${o.id} explain ${p}`] = await explain(o.id, p);
        }
      }
      return out;
    };
    // Settled: two rounds in a row answer the same (nothing of the earlier incidents still in flight).
    const projected = await waitFor('settled answers', async () => {
      const [a, b] = [await answers(), await answers()];
      return isDeepStrictEqual(a, b) ? a : undefined;
    }, 60_000, 250);
    expect(projected[`${id} history ${POD_IMAGE}`]).toEqual(await history(id, POD_IMAGE));

    const { jobId } = await api<ReplayResponseDto>('/v1/replays', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { kind: 'all' } }),
    });
    const done = await waitFor('the replay completed (GET /v1/replays/{jobId})', async () => {
      const s = await api<ReplayStatusResponseDto>(`/v1/replays/${jobId}`);
      if (s.state === 'failed') throw new Error(`replay failed: ${s.failedReason}`);
      return s.state === 'completed' ? s : undefined;
    }, 120_000, 250);
    expect(done).toMatchObject({ jobId, scope: { kind: 'all' }, failedReason: null, progress: { percent: 100 } });
    expect(done.result!.events).toBeGreaterThan(0);
    expect(done.result!.events).toBe(done.progress!.events);
    expect(await answers()).toEqual(projected);
  });
});
