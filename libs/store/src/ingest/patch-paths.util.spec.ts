import { reaches } from './body-values.util.js';
import { pathsMask, patchPathsOf } from './patch-paths.util.js';

/** A small alphabet of tokens, escaped ones among them, so that pointers share prefixes often. */
const TOKENS = ['spec', 'template', 'containers', '0', '1', 'metadata', 'labels', 'a~1b', 'x~0y', 'status'];

function randomPointer(random: () => number, maxDepth: number): string {
  const n = Math.floor(random() * (maxDepth + 1));
  let p = '';
  for (let i = 0; i < n; i++) p += '/' + TOKENS[Math.floor(random() * TOKENS.length)];
  return p;
}

/** A seeded generator (mulberry32): the same cases on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bits as this summary first wrote them (events.patch_paths holds them): pinned, not derived. */
const PINNED = { image: '2251834710294528', containers: '-9077005048965234688', label: '148623185749737472' };

describe('patch paths summary', () => {
  it('never leaves out a patch one of whose operations reaches the path (random pointers of up to 7 tokens)', () => {
    const random = seeded(42);
    let reaching = 0;
    let skipped = 0;
    let unrelated = 0;
    for (let i = 0; i < 50_000; i++) {
      const ops = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ path: randomPointer(random, 7) || '/spec' }));
      const at = randomPointer(random, 7);
      const kept = (patchPathsOf(ops) & pathsMask(at)) !== 0n;
      if (ops.some((op) => reaches(op.path, at))) {
        reaching++;
        expect([ops, at, kept]).toEqual([ops, at, true]);
      } else {
        unrelated++;
        if (!kept) skipped++;
      }
    }
    expect(reaching).toBeGreaterThan(5_000);
    // Most patches that do not reach the path are skipped without their body.
    expect(skipped / unrelated).toBeGreaterThan(0.5);
  });

  it('keeps every patch for the root and every path for a patch that copies, moves or replaces the root', () => {
    expect(patchPathsOf([{ path: '/metadata/labels/a' }]) & pathsMask('')).not.toBe(0n);
    for (const ops of [[{ path: '/spec/x', from: '/status/y' }], [{ path: '' }]]) expect(patchPathsOf(ops)).toBe(-1n);
  });

  it('keeps the bits every stored summary was written with (a change of hash or depth would make stored rows miss paths)', () => {
    expect(String(patchPathsOf([{ path: '/spec/template/spec/containers/0/image' }]))).toBe(PINNED.image);
    expect(String(pathsMask('/spec/template/spec/containers'))).toBe(PINNED.containers);
    expect(String(pathsMask('/metadata/labels/a~1b'))).toBe(PINNED.label);
  });

  it('skips a controller status and annotation patch for the image of a container', () => {
    const ops = [
      { path: '/metadata/annotations/deployment.kubernetes.io~1revision' },
      { path: '/status/readyReplicas' },
      { path: '/status/observedGeneration' },
    ];
    expect(patchPathsOf(ops) & pathsMask('/spec/template/spec/containers')).toBe(0n);
    expect(patchPathsOf([{ path: '/spec/template/spec/containers/0/image' }]) & pathsMask('/spec/template/spec/containers')).not.toBe(0n);
  });
});
