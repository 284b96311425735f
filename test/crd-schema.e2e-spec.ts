import type { FieldResponseDto, ListObjectsResponseDto, OwnershipResponseDto } from '../apps/api/src/objects.dto.js';
import type { SimulateApplyResponseDto } from '../apps/api/src/simulate.dto.js';
import { itWithKubectl } from '../libs/testing/src/kubectl-sandbox.js';
import { useBuiltService } from '../libs/testing/src/use-built-service.js';
import { waitFor } from '../libs/testing/src/index.js';

// Issue 14 part 3 end to end: a CRD whose list is keyed (`x-kubernetes-list-type: map`), two managers
// each applying one item with the real kubectl, answered per item with the schema the cluster
// publishes (the watcher stores it, the projector re-projects what it folded before it arrived).

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, listKind: WidgetList }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              items:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: { type: string }
                    size: { type: integer }
`;

const widget = (items: string) => `apiVersion: example.com/v1
kind: Widget
metadata: { name: gear, namespace: default }
spec:
  items: ${items}
`;

describe("custom resources with the cluster's schema (kubectl → sandbox → watcher → worker → API)", () => {
  const e2e = useBuiltService('crd');
  const api = <T>(path: string, init?: RequestInit) => e2e.service.api<T>(path, init);
  const field = (id: string, path: string) => api<FieldResponseDto>(`/v1/objects/${id}/fields?path=${encodeURIComponent(path)}`);

  itWithKubectl(0, 'kubectl applies the CRD and the custom resources')('two appliers of one keyed list each own their item, answered with the CRD schema', async () => {
    await e2e.k.ok(['apply', '-f', '-'], { input: CRD });
    await waitFor('the Widget kind served', async () => (await e2e.k.kubectl(['get', 'widgets', '-A'])).code === 0, 30_000, 250);
    await e2e.k.ok(['apply', '--server-side', '--field-manager=team-a', '-f', '-'], { input: widget('[{ name: a, size: 1 }]') });
    await e2e.k.ok(['apply', '--server-side', '--field-manager=team-b', '-f', '-'], { input: widget('[{ name: b, size: 2 }]') });
    // The sandbox merged per item, as the apiserver does.
    expect((await e2e.k.getJson('widget', 'gear', '-n', 'default'))['spec']).toEqual({ items: [{ name: 'a', size: 1 }, { name: 'b', size: 2 }] });

    const { id, cluster } = await waitFor(
      'the Widget in the API',
      async () => (await api<ListObjectsResponseDto>('/v1/objects?kind=Widget&name=gear')).items[0],
      60_000,
      250,
    );
    // Answered once the projection has both writes and the CRD's schema (re-projected if the schema came later).
    const b = await waitFor(
      "item b's owner with the cluster's schema",
      async () => {
        const f = await field(id, '.spec.items[name="b"].size');
        return f.owners.length > 0 && f.schema.source === 'cluster' ? f : undefined;
      },
      60_000,
      250,
    );
    expect(b.schema).toMatchObject({ source: 'cluster', typeName: 'example.com.v1.Widget' });
    expect(b.owners.map((o) => o.manager)).toEqual(['team-b']);
    expect((await field(id, '.spec.items[name="a"].size')).owners.map((o) => o.manager)).toEqual(['team-a']);
    const ownership = await api<OwnershipResponseDto>(`/v1/objects/${id}/ownership`);
    expect(ownership.schema.source).toBe('cluster');

    // What team-a's next apply would do: merge into its item, team-b's stays — and kubectl agrees.
    const next = widget('[{ name: a, size: 3 }]');
    const sim = await api<SimulateApplyResponseDto>('/v1/simulate/apply', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cluster, manager: 'team-a', manifest: next }),
    });
    expect(sim.conflicts).toEqual([]);
    expect(sim.schema.source).toBe('cluster');
    expect(sim.result!.object["spec"]).toEqual({ items: [{ name: 'a', size: 3 }, { name: 'b', size: 2 }] });
    await e2e.k.ok(['apply', '--server-side', '--field-manager=team-a', '-f', '-'], { input: next });
    expect((await e2e.k.getJson('widget', 'gear', '-n', 'default'))['spec']).toEqual(sim.result!.object["spec"]);
  });
});
