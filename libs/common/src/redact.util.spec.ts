import { createHash, createHmac, createSecretKey } from 'node:crypto';
import { LAST_APPLIED_ANNOTATION, hashValue, isSensitiveKind, redactObject } from './redact.util.js';
import type { KubeObject } from './observation.types.js';

const key = createSecretKey(Buffer.alloc(32, 1));
const otherKey = createSecretKey(Buffer.alloc(32, 2));
const hmacHex = (json: string) => createHmac('sha256', Buffer.alloc(32, 1)).update(json).digest('hex');
const sha256Hex = (json: string) => createHash('sha256').update(json).digest('hex');

describe('hashValue', () => {
  it('is the HMAC-SHA-256 of the canonical JSON under the key, marked with its scheme', () => {
    expect(hashValue('hunter2', key)).toBe(`hmac-sha256:${hmacHex('"hunter2"')}`);
    expect(hashValue({ b: 1, a: [2] }, key)).toBe(`hmac-sha256:${hmacHex('{"a":[2],"b":1}')}`);
  });

  it('gives the same hash for the same value and key, another for another key or value', () => {
    expect(hashValue('hunter2', key)).toBe(hashValue('hunter2', createSecretKey(Buffer.alloc(32, 1))));
    expect(hashValue('hunter2', otherKey)).not.toBe(hashValue('hunter2', key));
    expect(hashValue('hunter3', key)).not.toBe(hashValue('hunter2', key));
  });

  it('never gives the plain SHA-256 of the value (it could be confirmed by guessing)', () => {
    const h = hashValue('hunter2', key);
    expect(h).not.toContain(sha256Hex('"hunter2"'));
    expect(h).not.toContain(sha256Hex('hunter2'));
  });

  it('keeps a value that already is a hash of either scheme (old sha256: values stay as they are)', () => {
    const keyed = hashValue('x', key);
    expect(hashValue(keyed, otherKey)).toBe(keyed);
    const old = `sha256:${sha256Hex('"x"')}`;
    expect(hashValue(old, key)).toBe(old);
  });
});

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
    const r = redactObject(obj, key) as unknown as Record<string, any>;
    expect(r['metadata'].name).toBe('s');
    expect(r['metadata'].labels).toEqual({ app: 'x' });
    expect(r['data'].token).toBe(hashValue('c2VjcmV0', key));
    expect(r['data'].list).toEqual([hashValue('a', key), hashValue('b', key)]);
    expect(r['metadata'].annotations.note).toBe(hashValue('secret-ish', key));
    const la = JSON.parse(r['metadata'].annotations[LAST_APPLIED_ANNOTATION]);
    expect(la.stringData.pw).toBe(hashValue('hunter2', key));
    expect(la.metadata.name).toBe('s');
    expect(JSON.stringify(r)).not.toMatch(/hunter2|c2VjcmV0/);
    expect(JSON.stringify(r)).not.toContain(sha256Hex('"hunter2"'));
  });

  it('is idempotent (redacting twice changes nothing)', () => {
    const obj: KubeObject = { kind: 'Secret', metadata: { uid: 'u', name: 's', resourceVersion: '1', annotations: { [LAST_APPLIED_ANNOTATION]: '{"data":{"a":"b"}}' } }, data: { a: 'b' } };
    const once = redactObject(obj, key);
    expect(redactObject(once, key)).toEqual(once);
    // The store redacts again with its own key: the producer's hashes are kept as they are.
    expect(redactObject(once, otherKey)).toEqual(once);
  });

  it('hashes an unparsable last-applied annotation whole', () => {
    const obj: KubeObject = { metadata: { uid: 'u', name: 's', resourceVersion: '1', annotations: { [LAST_APPLIED_ANNOTATION]: 'not json hunter2' } } };
    expect(redactObject(obj, key).metadata.annotations![LAST_APPLIED_ANNOTATION]).toBe(hashValue('not json hunter2', key));
  });
});
