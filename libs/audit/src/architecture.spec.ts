// libs/audit is the pure domain: it imports the engine's public API and itself, nothing else (no
// framework, no node:*, no packages), and never reaches into the engine's internals.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(process.cwd(), 'libs/audit/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'testing' ? [] : sources(p);
    return d.name.endsWith('.ts') && !d.name.endsWith('.spec.ts') ? [p] : [];
  });
}

describe('libs/audit imports', () => {
  it.each(sources(SRC).map((f) => path.relative(SRC, f)))('%s imports only the engine index and its own files', (file) => {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)].map((m) => m[1] ?? m[2]!);
    for (const s of specifiers) {
      const ok = s === '../../ssa-engine/src/index.js' || (s.startsWith('./') && s.endsWith('.js'));
      expect({ file, import: s, ok }).toEqual({ file, import: s, ok: true });
    }
    expect(text).not.toMatch(/process\.env|require\(/);
  });
});
