import { itWithKubectl, KubectlSandbox, owners, type KubeJson } from '../../testing/src/kubectl-sandbox.js';

// The real kubectl against the sandbox: a Secret's stringData is merged into data (base64) on
// every write, never stored nor returned, and managedFields record what the apiserver records:
// f:data for create/update/patch (decoded to the internal version first), f:stringData for apply.

const it21 = itWithKubectl(21, '--show-managed-fields');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const secret = (name: string, stringData: Record<string, string>, data?: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', ...(data ? { data } : {}), stringData });

/** Splits kubectl's `-o json` watch output (pretty-printed objects one after another). */
function jsonStream(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}

describe('Secrets with stringData against the sandbox (real kubectl)', () => {
  let k: KubectlSandbox;
  beforeEach(async () => {
    k = await KubectlSandbox.start();
  });
  afterEach(async () => {
    await k.close();
  });

  const get = (name: string): Promise<KubeJson> => k.getJson('secret', name);

  it21('create secret generic --from-literal sends data: kubectl-create owns the data keys', async () => {
    expect(await k.ok(['create', 'secret', 'generic', 'lit', '--from-literal=user=admin', '--from-literal=pw=s3cr3t'])).toBe('secret/lit created\n');
    const s = await get('lit');
    expect(s['data']).toEqual({ pw: b64('s3cr3t'), user: b64('admin') });
    expect(s['stringData']).toBeUndefined();
    expect(s['type']).toBe('Opaque');
    expect(owners(s)).toEqual({ 'kubectl-create/Update': { 'f:data': { '.': {}, 'f:pw': {}, 'f:user': {} }, 'f:type': {} } });
  });

  it21('client-side apply: data holds the merged values (stringData wins), the annotation keeps stringData as written, the CSA manager owns f:data', async () => {
    const v1 = secret('csa', { user: 'admin', pw: 'pässwörd' }, { user: b64('overridden'), keep: b64('kept') });
    expect(await k.ok(['apply', '-f', '-'], { input: v1 })).toBe('secret/csa created\n');
    let s = await get('csa');
    expect(s['data']).toEqual({ keep: b64('kept'), pw: b64('pässwörd'), user: b64('admin') });
    expect(s['stringData']).toBeUndefined();
    expect(JSON.parse(s.metadata['annotations'][LAST_APPLIED])['stringData']).toEqual({ pw: 'pässwörd', user: 'admin' });
    expect(owners(s)).toEqual({
      'kubectl-client-side-apply/Update': {
        'f:data': { '.': {}, 'f:keep': {}, 'f:pw': {}, 'f:user': {} },
        'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED}`]: {} } },
        'f:type': {},
      },
    });

    // A changed value arrives as a strategic merge patch of stringData; the patch's writer owns data.pw.
    expect(await k.ok(['apply', '-f', '-'], { input: secret('csa', { user: 'admin', pw: 'new' }, { user: b64('overridden'), keep: b64('kept') }) })).toBe('secret/csa configured\n');
    s = await get('csa');
    expect(s['data']).toEqual({ keep: b64('kept'), pw: b64('new'), user: b64('admin') });
    expect(s['stringData']).toBeUndefined();
    expect(owners(s)['kubectl-client-side-apply/Update']).toMatchObject({ 'f:data': { 'f:pw': {} } });

    // Removing a stringData key sends {"stringData":{"pw":null}}: nothing to delete, data.pw stays
    // (kubernetes/kubernetes#89938: the fold happens server-side, the patch is computed client-side).
    await k.ok(['apply', '-f', '-'], { input: secret('csa', { user: 'admin' }, { user: b64('overridden'), keep: b64('kept') }) });
    s = await get('csa');
    expect(s['data']).toEqual({ keep: b64('kept'), pw: b64('new'), user: b64('admin') });
    expect(s['stringData']).toBeUndefined();
  });

  it21('server-side apply: the Apply entry owns f:stringData, data keys are owned by nobody; re-apply is a no-op; a dropped key stays in data', async () => {
    const cfg = secret('ssa', { user: 'admin', pw: 'x' });
    expect(await k.ok(['apply', '--server-side', '-f', '-'], { input: cfg })).toBe('secret/ssa serverside-applied\n');
    const s = await get('ssa');
    expect(s['data']).toEqual({ pw: b64('x'), user: b64('admin') });
    expect(s['stringData']).toBeUndefined();
    expect(s.metadata.managedFields).toHaveLength(1);
    expect(s.metadata.managedFields![0]).toMatchObject({ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1' });
    expect(owners(s)).toEqual({ 'kubectl/Apply': { 'f:stringData': { 'f:pw': {}, 'f:user': {} }, 'f:type': {} } });

    await k.ok(['apply', '--server-side', '-f', '-'], { input: cfg });
    const again = await get('ssa');
    expect(again.metadata['resourceVersion']).toBe(s.metadata['resourceVersion']);
    expect(again.metadata.managedFields).toEqual(s.metadata.managedFields);

    // kubernetes/kubernetes#108008: dropping a stringData key drops only its ownership.
    await k.ok(['apply', '--server-side', '-f', '-'], { input: secret('ssa', { user: 'admin' }) });
    const dropped = await get('ssa');
    expect(dropped['data']).toEqual({ pw: b64('x'), user: b64('admin') });
    expect(owners(dropped)).toEqual({ 'kubectl/Apply': { 'f:stringData': { 'f:user': {} }, 'f:type': {} } });
  });

  it21('replace (PUT) with stringData: kubectl-replace owns the data keys it changed', async () => {
    await k.ok(['create', 'secret', 'generic', 'rep', '--from-literal=user=admin']);
    const put = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'rep' }, type: 'Opaque', stringData: { user: 'root', extra: 'e' } });
    expect(await k.ok(['replace', '-f', '-'], { input: put })).toBe('secret/rep replaced\n');
    const s = await get('rep');
    expect(s['data']).toEqual({ extra: b64('e'), user: b64('root') });
    expect(s['stringData']).toBeUndefined();
    expect(owners(s)).toEqual({
      // kubectl-create keeps the data map itself (FieldsV1 writes a childless member as {}).
      'kubectl-create/Update': { 'f:data': {}, 'f:type': {} },
      'kubectl-replace/Update': { 'f:data': { 'f:extra': {}, 'f:user': {} } },
    });
  });

  it21('watch events carry what get returns: data, no stringData', async () => {
    const watch = k.kubectl(['get', 'secrets', '-w', '--watch-only', '--output-watch-events', '-o', 'json', '--request-timeout=5s']);
    await new Promise((r) => setTimeout(r, 1500));
    await k.ok(['apply', '--server-side', '-f', '-'], { input: secret('w', { a: 'one' }) });
    await k.ok(['patch', 'secret', 'w', '-p', '{"stringData":{"a":"two"}}']);
    const got = await get('w');
    const events = jsonStream((await watch).stdout) as { type: string; object: KubeJson }[];
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    expect(events.map((e) => e.object['data'])).toEqual([{ a: b64('one') }, { a: b64('two') }]);
    for (const e of events) expect(e.object['stringData']).toBeUndefined();
    expect(events[1]!.object).toEqual(got);
    expect(owners(got)['kubectl-patch/Update']).toEqual({ 'f:data': { 'f:a': {} } });
  });
});
