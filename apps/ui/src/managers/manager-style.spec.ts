import { BORDERS, PALETTE, managerStyle } from './manager-style';

describe('managerStyle', () => {
  it('gives a manager the same look every time, from the colour-blind-safe palette, with its letter', () => {
    const a = managerStyle('kubectl-client-side-apply');
    expect(managerStyle('kubectl-client-side-apply')).toEqual(a);
    expect(PALETTE).toContain(a.color);
    expect(BORDERS).toContain(a.border);
    expect(a.letter).toBe('KA');
    expect(managerStyle('kubectl').letter).toBe('K');
  });

  it('spreads common managers over the palette and patterns', () => {
    const names = ['kubectl', 'kubectl-set', 'kubectl-client-side-apply', 'flux-controller', 'helm', 'argocd-controller', 'horizontal-pod-autoscaler', 'kube-controller-manager'];
    const looks = new Set(names.map((n) => { const s = managerStyle(n); return `${s.color} ${s.border}`; }));
    expect(looks.size).toBeGreaterThanOrEqual(6);
  });
});
