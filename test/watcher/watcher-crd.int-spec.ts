import { storedHistory, waitFor } from '../../libs/testing/src/index.js';
import { WatcherService } from '../../apps/watcher/src/watcher.service.js';
import { createWatcherHarness, type WatcherHarness } from './watcher-harness.js';

// A CRD created while the watcher runs is picked up without a restart (its objects recorded, its OpenAPI
// document stored); deleting it stops its watch and drops its document.

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } } } } },
      },
    ],
  },
};

describe('watcher: CRDs come and go', () => {
  let h: WatcherHarness;
  beforeAll(async () => {
    h = await createWatcherHarness('watcher-crd');
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it('watches a new CRD at once, records its objects, and stops when it is deleted', async () => {
    const app = await h.start(['worker', 'watcher']);
    await h.ready(app);
    const cw = app.app.get(WatcherService).clusterWatchers[0]!;
    expect(cw.watchedResources).not.toContain('widgets.example.com');

    const schemaPaths = async () => ((await h.ds.query(`SELECT path FROM api_schemas ORDER BY path`)) as { path: string }[]).map((r) => r.path);
    await waitFor('built-in schemas stored', async () => (await schemaPaths()).includes('apis/apps/v1'));
    expect(await schemaPaths()).not.toContain('apis/example.com/v1');

    await h.writer.create(CRDS, crd);
    await waitFor('widgets watched', async () => cw.watchedResources.includes('widgets.example.com'), 10_000);
    // Its OpenAPI document follows, with the CRD's schema in it.
    await waitFor('CRD schema stored', async () => (await schemaPaths()).includes('apis/example.com/v1'), 10_000);
    const [doc] = (await h.ds.query(`SELECT document FROM api_schemas WHERE path = 'apis/example.com/v1'`)) as { document: { components?: { schemas?: Record<string, unknown> } } }[];
    expect(Object.keys(doc!.document.components?.schemas ?? {}).some((k) => k.endsWith('Widget'))).toBe(true);
    const a = await h.writer.apply(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } }, 'ci');
    const b = await h.writer.apply(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 2, color: 'red' } }, 'ci');
    await waitFor('widget stored', async () => (await storedHistory(h.ds, h.cluster)).get(a.uid)?.length === 2);
    const kinds: { kind: string; resource: string; api_group: string }[] = await h.ds.query(`SELECT kind, resource, api_group FROM objects WHERE uid = $1`, [a.uid]);
    expect(kinds).toEqual([{ kind: 'Widget', resource: 'widgets', api_group: 'example.com' }]);
    expect((await storedHistory(h.ds, h.cluster)).get(a.uid)!.map((s) => s.resourceVersion)).toEqual([a.resourceVersion, b.resourceVersion]);

    await h.writer.delete(CRDS, 'widgets.example.com');
    await waitFor('widgets no longer watched', async () => !cw.watchedResources.includes('widgets.example.com'), 10_000);
    // Its objects went with it, and the store says so.
    await waitFor('widget deletion stored', async () => (await storedHistory(h.ds, h.cluster)).get(a.uid)?.at(-1)?.type === 'DELETED', 10_000);
    await waitFor('CRD schema dropped', async () => !(await schemaPaths()).includes('apis/example.com/v1'), 10_000);
  });
});
