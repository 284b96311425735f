import { kubectlConflictStderr } from './kubectl-apply-output.js';

describe('kubectlConflictStderr', () => {
  it("is the apiserver's message after 'error: ', then kubectl's advice, ending in a newline", () => {
    const message = 'Apply failed with 1 conflict: conflict with "kubectl-set" using v1: .spec.x';
    const out = kubectlConflictStderr([message]);
    expect(out.startsWith(`error: ${message}\nPlease review the fields above--they currently have other managers. Here\nare the ways you can resolve this warning:\n`)).toBe(true);
    expect(out.endsWith('See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts\n')).toBe(true);
    expect(out.split('\n')).toHaveLength(13); // 12 lines, each ending in a newline
  });

  it('prints several conflicts (several objects of one manifest) one after another, without the error: prefix, as kubectl prints an aggregate', () => {
    const [a, b] = ['Apply failed with 1 conflict: conflict with "one": .data.a', 'Apply failed with 1 conflict: conflict with "one": .data.b'];
    const one = (m: string) => kubectlConflictStderr([m]).slice('error: '.length);
    expect(kubectlConflictStderr([a, b])).toBe(one(a) + one(b));
    expect(kubectlConflictStderr([])).toBe('');
  });
});
