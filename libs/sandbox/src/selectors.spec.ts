import { ApiError } from './api-error.js';
import { fieldSelector, labelSelector, parseLabelSelector, selectableFields } from './selectors.js';

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'front', 'example.com/team': 'a' };

  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app=api', false],
    ['app in (api, web)', true],
    ['app notin (api,web)', false],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['missing!=x', true],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['example.com/team=a', true],
  ])('%s → %s', (sel, want) => {
    expect(labelSelector(sel)(labels)).toBe(want);
  });

  it('parses set-based requirements', () => {
    expect(parseLabelSelector('a in (x, y),!b')).toEqual([
      { op: 'in', key: 'a', values: ['x', 'y'] },
      { op: '!', key: 'b' },
    ]);
  });

  it.each(['a=b=c', 'in (x)', '=x', 'a in x'])('rejects %s with a 400', (sel) => {
    try {
      labelSelector(sel);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe(400);
    }
  });
});

describe('field selectors', () => {
  const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } };
  const fields = selectableFields(pod, ['spec.nodeName', 'status.phase']);
  const supported = (f: string) => f in fields;

  it.each([
    ['metadata.name=p', true],
    ['metadata.name!=p', false],
    ['metadata.namespace==ns,status.phase=Running', true],
    ['spec.nodeName=n2', false],
  ])('%s → %s', (sel, want) => {
    expect(fieldSelector(sel, supported)(fields)).toBe(want);
  });

  it('rejects fields the kind does not support', () => {
    expect(() => fieldSelector('spec.foo=x', supported)).toThrow('field label not supported: spec.foo');
  });
});
