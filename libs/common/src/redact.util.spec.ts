import { LAST_APPLIED_ANNOTATION, hashValue, isSensitiveKind, redactObject } from './redact.util.js';
import type { KubeObject } from './observation.types.js';

describe('redaction', () => {
  it('matches kinds with or without a group', () => {
    expect(isSensitiveKind('Secret', '', ['Secret'])).toBe(true);
    expect(isSensitiveKind('SealedSecret', 'bitnami.com', ['SealedSecret.bitnami.com'])).toBe(true);
    expect(isSensitiveKind('SealedSecret', 'other.io', ['SealedSecret.bitnami.com'])).toBe(false);
    expect(isSensitiveKind('ConfigMap', '', ['Secret'])).toBe(false);
  });

  it('keeps paths and identity, hashes values, including inside last-applied-configuration', () => {
    const applied = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { token: 'c2VjcmV0' }, stringData: { pw: 'hunter2' } };
    const obj: KubeObject = {
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
      metadata: { uid: 'u', name: 's', resourceVersion: '1', labels: { app: 'x' }, annotations: { [LAST_APPLIED_ANNOTATION]: JSON.stringify(applied), note: 'secret-ish' } },
      data: { token: 'c2VjcmV0', list: ['a', 'b'] },
    };
    const r = redactObject(obj) as unknown as Record<string, any>;
    expect(r['metadata'].name).toBe('s');
    expect(r['metadata'].labels).toEqual({ app: 'x' });
    expect(r['data'].token).toBe(hashValue('c2VjcmV0'));
    expect(r['data'].list).toEqual([hashValue('a'), hashValue('b')]);
    expect(r['metadata'].annotations.note).toBe(hashValue('secret-ish'));
    const la = JSON.parse(r['metadata'].annotations[LAST_APPLIED_ANNOTATION]);
    expect(la.stringData.pw).toBe(hashValue('hunter2'));
    expect(la.metadata.name).toBe('s');
    expect(JSON.stringify(r)).not.toMatch(/hunter2|c2VjcmV0/);
  });

  it('is idempotent (redacting twice changes nothing)', () => {
    const obj: KubeObject = { kind: 'Secret', metadata: { uid: 'u', name: 's', resourceVersion: '1', annotations: { [LAST_APPLIED_ANNOTATION]: '{"data":{"a":"b"}}' } }, data: { a: 'b' } };
    const once = redactObject(obj);
    expect(redactObject(once)).toEqual(once);
  });

  it('hashes an unparsable last-applied annotation whole', () => {
    const obj: KubeObject = { metadata: { uid: 'u', name: 's', resourceVersion: '1', annotations: { [LAST_APPLIED_ANNOTATION]: 'not json hunter2' } } };
    expect(redactObject(obj).metadata.annotations![LAST_APPLIED_ANNOTATION]).toBe(hashValue('not json hunter2'));
  });
});
