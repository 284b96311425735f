import { parsePath } from '../fieldpath/parse-path.js';
import { fieldName } from '../fieldpath/path-element.js';
import { deleteField, deletePatch, forceThenDrop, remedyTarget, removeEntry } from './remedies.js';
import type { ManagerRef } from './snapshot.js';
import { DEPLOYMENT } from './test-fixtures.js';

const ref = (manager: string, operation: 'Apply' | 'Update'): ManagerRef => ({ manager, operation, apiVersion: 'v1', subresource: '' });
const target = { resource: 'configmap/app-config', namespace: 'default' };

describe('remedies say exactly what running them does', () => {
  const csa = ref('kubectl-client-side-apply', 'Update');

  it('removing the last owner entry leaves the field present and unowned: no apply prunes it', () => {
    const r = removeEntry(csa, 1, 2, target, '.metadata.labels.x', []);
    expect(r.description).toMatch(/no value changes; \.metadata\.labels\.x stays in the object, owned by nobody; no apply prunes it/);
    expect(r.description).toMatch(/delete it explicitly \(delete-field\)/);
    expect(r.commands[0]).toBe(
      `kubectl patch configmap/app-config -n default --type=json -p '[{"op":"test","path":"/metadata/managedFields/1/manager","value":"kubectl-client-side-apply"},{"op":"test","path":"/metadata/managedFields/1/operation","value":"Update"},{"op":"test","path":"/metadata/managedFields/1/apiVersion","value":"v1"},{"op":"remove","path":"/metadata/managedFields/1"}]'`,
    );
  });

  it('removing an entry while an applier still owns the field: that applier prunes it once it stops applying it', () => {
    expect(removeEntry(csa, 1, 3, target, '.data.a', [ref('ci', 'Apply')]).description).toMatch(/\.data\.a stays, owned by ci \(Apply\) only; it is pruned once ci \(Apply\) applies without it$/);
    expect(removeEntry(csa, 1, 3, target, '.data.a', [ref('u2', 'Update')]).description).toMatch(/\.data\.a stays, still owned by u2 \(Update\)$/);
  });

  it('deletes a label or annotation with kubectl label/annotate, anything else with a guarded JSON patch', () => {
    const obj = { metadata: { labels: { 'app.kubernetes.io/name': 'x' } } };
    expect(deleteField([fieldName('metadata'), fieldName('labels'), fieldName('app.kubernetes.io/name')], '.metadata.labels…', obj, [csa], target)?.commands).toEqual([
      'kubectl label configmap/app-config -n default app.kubernetes.io/name-',
    ]);
    expect(deleteField([fieldName('metadata'), fieldName('annotations'), fieldName('a b')], '.metadata.annotations…', {}, [], target)?.commands).toEqual([
      "kubectl annotate configmap/app-config -n default 'a b-'",
    ]);
    const d = deleteField([fieldName('data'), fieldName('a/b~c')], '.data…', { data: { 'a/b~c': '1' } }, [csa], target)!;
    expect(d.patch).toEqual([{ op: 'remove', path: '/data/a~1b~0c' }]);
    expect(d.warning).toMatch(/comes back if kubectl-client-side-apply \(Update\) writes it again/);
    // Absent: nothing to delete.
    expect(deleteField(parsePath('.data.zzz'), '.data.zzz', { data: {} }, [], target)).toBeNull();
  });

  it('addresses list items by their current index, guarded by their keys', () => {
    const deploy = { spec: { template: { spec: { containers: [{ name: 'side' }, { name: 'app', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } } } };
    const p = parsePath('.spec.template.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"]', DEPLOYMENT);
    expect(deletePatch(deploy, p)).toEqual([
      { op: 'test', path: '/spec/template/spec/containers/1/name', value: 'app' },
      { op: 'test', path: '/spec/template/spec/containers/1/ports/0/containerPort', value: 80 },
      { op: 'test', path: '/spec/template/spec/containers/1/ports/0/protocol', value: 'TCP' },
      { op: 'remove', path: '/spec/template/spec/containers/1/ports/0' },
    ]);
    expect(deletePatch(deploy, parsePath('.spec.template.spec.containers[name="gone"].image', DEPLOYMENT))).toBeNull();
  });

  it('force-then-drop changes the value when others own the field (forcing the current value only shares it)', () => {
    const t = remedyTarget({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', namespace: 'n' } });
    expect(forceThenDrop('flux', '.data.a', t, true).commands[0]).toBe('kubectl apply --server-side --force-conflicts --field-manager=flux -n n -f <manifest with a new value of .data.a>');
    expect(forceThenDrop('flux', '.data.a', t, true).description).toMatch(/other than its current one \(the current value would only be shared\)/);
    expect(forceThenDrop('flux', '.data.a', t, false).commands[0]).toBe('kubectl apply --server-side --force-conflicts --field-manager=flux -n n -f <manifest with .data.a>');
  });
});
