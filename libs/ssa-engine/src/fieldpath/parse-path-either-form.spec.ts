import fc from 'fast-check';
import { SsaEngineError } from '../errors.js';
import { BUILTIN_SCHEMA, builtinTypeName } from '../schema/builtin-schema.js';
import { pathToHuman, type Path } from './field-set.js';
import { parsePath } from './parse-path.js';
import { fieldName, indexElement, keyElement, valueElement } from './path-element.js';

const POD = BUILTIN_SCHEMA.type(builtinTypeName('v1', 'Pod')!);
const dotted = (p: Path): string => p.map((pe) => pe.str).join('.');

describe('parsePath', () => {
  it('human form with keys, values and indexes', () => {
    const p = parsePath('.spec.containers[name="nginx"].image', POD);
    expect(p).toEqual([fieldName('spec'), fieldName('containers'), keyElement([{ name: 'name', value: 'nginx' }]), fieldName('image')]);
    expect(parsePath('.spec.containers[name="a"].ports[containerPort=80,protocol="TCP"]')).toHaveLength(5);
    expect(parsePath('.metadata.finalizers[="a.b/c"]')[2]).toEqual(valueElement('a.b/c'));
    expect(parsePath('.spec.args[0]')[2]).toEqual(indexElement(0));
  });

  it('FieldsV1 dotted form', () => {
    const p = parsePath('f:spec.f:containers.k:{"name":"nginx"}.f:image');
    expect(pathToHuman(p)).toBe('.spec.containers[name="nginx"].image');
    expect(parsePath('f:metadata.f:labels.f:app.kubernetes.io/name')[2]).toEqual(fieldName('app.kubernetes.io/name'));
    expect(parsePath('f:spec.f:ports.k:{"port":80,"protocol":"TCP"}.f:name')).toHaveLength(4);
    expect(parsePath('f:metadata.f:finalizers.v:"x.f:y"')[2]!.str).toBe(valueElement('x.f:y').str);
  });

  it('a label name with dots is one key when the schema says the map holds scalars', () => {
    expect(parsePath('.metadata.labels.app.kubernetes.io/name', POD)[2]).toEqual(fieldName('app.kubernetes.io/name'));
    expect(parsePath('.metadata.annotations.a.b[0]', POD)).toHaveLength(4);
    // Without a schema every dot separates.
    expect(parsePath('.metadata.labels.app.kubernetes.io/name')).toHaveLength(5);
  });

  it('round trips both forms for generated paths', () => {
    const name = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,8}$/);
    const pe = fc.oneof(
      name.map(fieldName),
      fc.nat(50).map(indexElement),
      fc.tuple(name, fc.oneof(fc.string({ maxLength: 6 }), fc.integer())).map(([n, v]) => keyElement([{ name: n, value: v }])),
      fc.string({ maxLength: 6 }).map((v) => valueElement(v)),
    );
    fc.assert(
      fc.property(fc.array(pe, { minLength: 1, maxLength: 6 }), (p) => {
        expect(dotted(parsePath(pathToHuman(p)))).toBe(dotted(p));
        expect(dotted(parsePath(dotted(p)))).toBe(dotted(p));
      }),
    );
  });

  it.each(['spec', '.spec[', '.spec.[x', '.a[name="x]', 'k:{"a":', '.a[=]', '.a[x]', 'x:y', '.a..b'])('rejects %s with SsaEngineError', (s) => {
    expect(() => parsePath(s)).toThrow(SsaEngineError);
  });
});
