import { SsaEngineError } from '../errors.js';
import { BUILTIN_SCHEMA } from '../schema/builtin-schema.js';
import { pathToHuman } from './field-set.js';
import { PathParseError, parseFieldsV1Path, parseHumanPath } from './parse-path.js';

const DEPLOYMENT = BUILTIN_SCHEMA.type('io.k8s.api.apps.v1.Deployment');
const strs = (p: readonly { str: string }[]) => p.map((e) => e.str);

function positionOf(f: () => unknown): number {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SsaEngineError);
    expect((e as SsaEngineError).code).toBe('invalid-path');
    return (e as PathParseError).position;
  }
  throw new Error('did not throw');
}

describe('parseHumanPath', () => {
  it('parses fields, keys, values and indexes', () => {
    expect(strs(parseHumanPath('.spec.containers[name="nginx"].image'))).toEqual(['f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image']);
    expect(strs(parseHumanPath('.ports[port=80,protocol="TCP"]'))).toEqual(['f:ports', 'k:{"port":80,"protocol":"TCP"}']);
    expect(strs(parseHumanPath('.metadata.finalizers[="a.b/c"]'))).toEqual(['f:metadata', 'f:finalizers', 'v:"a.b/c"']);
    expect(strs(parseHumanPath('.args[0]'))).toEqual(['f:args', 'i:0']);
    expect(strs(parseHumanPath('[=true][=false][=null][=-1.5][=[1,"x"]]'))).toEqual(['v:true', 'v:false', 'v:null', 'v:-1.5', 'v:[1,"x"]']);
  });

  it('sorts key pairs by name', () => {
    expect(strs(parseHumanPath('[protocol="TCP",containerPort=80]'))).toEqual(['k:{"containerPort":80,"protocol":"TCP"}']);
  });

  it('decodes Go escapes in strings', () => {
    const [pe] = parseHumanPath('[="a\\"b\\\\c\\n\\t\\x41\\u00e9\\U0001F600\\101"]');
    expect(pe).toMatchObject({ value: 'a"b\\c\n\tAé😀A' });
  });

  it('keeps float form for printing (1e+06 round-trips)', () => {
    expect(pathToHuman(parseHumanPath('[id=1e+06]'))).toBe('[id=1e+06]');
    expect(pathToHuman(parseHumanPath('[id=1000000]'))).toBe('[id=1000000]');
    expect(parseHumanPath('[id=1e+06]')[0]!.str).toBe(parseHumanPath('[id=1000000]')[0]!.str);
  });

  it('splits dotted names at every dot without a schema', () => {
    expect(strs(parseHumanPath('.metadata.labels.app.kubernetes.io/name'))).toEqual(['f:metadata', 'f:labels', 'f:app', 'f:kubernetes', 'f:io/name']);
  });

  it('with a schema, takes a dotted key of a string map as one name', () => {
    expect(strs(parseHumanPath('.metadata.labels.app.kubernetes.io/name', DEPLOYMENT))).toEqual(['f:metadata', 'f:labels', 'f:app.kubernetes.io/name']);
    expect(strs(parseHumanPath('.spec.template.metadata.annotations.a.b/c', DEPLOYMENT))).toEqual([
      'f:spec',
      'f:template',
      'f:metadata',
      'f:annotations',
      'f:a.b/c',
    ]);
    expect(strs(parseHumanPath('.spec.template.spec.containers[name="a.b"].resources.limits.example.com/gpu', DEPLOYMENT))).toEqual([
      'f:spec',
      'f:template',
      'f:spec',
      'f:containers',
      'k:{"name":"a.b"}',
      'f:resources',
      'f:limits',
      'f:example.com/gpu',
    ]);
  });

  it('with a schema, still splits declared struct fields', () => {
    expect(strs(parseHumanPath('.spec.replicas', DEPLOYMENT))).toEqual(['f:spec', 'f:replicas']);
  });

  it.each([
    ['spec', 0],
    ['.spec[', 6],
    ['.spec[name=', 11],
    ['.spec[name="x"', 14],
    ['.spec[name="x', 11],
    ['.a..b', 3],
    ['[="\\q"]', 3],
    ['[=\\x]', 2],
    ['[a=1,a=2]', 5],
    ['[=1]x', 4],
    ['[=1', 3],
  ])('rejects %j at position %i', (s, pos) => {
    expect(positionOf(() => parseHumanPath(s))).toBe(pos);
  });
});

describe('parseFieldsV1Path', () => {
  it('parses the dotted FieldsV1 form; dots inside JSON do not split', () => {
    expect(strs(parseFieldsV1Path('f:spec.f:containers.k:{"name":"nginx.x"}.f:image'))).toEqual(['f:spec', 'f:containers', 'k:{"name":"nginx.x"}', 'f:image']);
    expect(strs(parseFieldsV1Path('f:metadata.f:finalizers.v:"a.b/c"'))).toEqual(['f:metadata', 'f:finalizers', 'v:"a.b/c"']);
    expect(strs(parseFieldsV1Path('f:args.i:3'))).toEqual(['f:args', 'i:3']);
    expect(strs(parseFieldsV1Path('k:{"a":{"b.c":[1,"}"]}}.f:x'))).toEqual(['k:{"a":{"b.c":[1,"}"]}}', 'f:x']);
    expect(parseFieldsV1Path('')).toEqual([]);
  });

  it('keeps dotted field names whole', () => {
    expect(strs(parseFieldsV1Path('f:metadata.f:labels.f:app.kubernetes.io/name'))).toEqual(['f:metadata', 'f:labels', 'f:app.kubernetes.io/name']);
    // A dot not followed by an element prefix belongs to the name, even at the end.
    expect(strs(parseFieldsV1Path('f:spec.'))).toEqual(['f:spec.']);
  });

  it.each([
    ['f:a.k:', 4],
    ['f:a.v:', 4],
    ['x:spec', 0],
    ['f:a.k:{"name":', 4],
    ['f:a.k:{"a":1}x', 4],
    ['f:a.i:1.5', 4],
    ['fspec', 0],
  ])('rejects %j at position %i', (s, pos) => {
    expect(positionOf(() => parseFieldsV1Path(s))).toBe(pos);
  });
});
