import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The dependency rules of STYLE.md, checked on the import statements of every TypeScript file.

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

const rel = (p: string) => relative(ROOT, p).split(sep).join('/');
const isTest = (f: string) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(f);
/** Test code (specs and their support folders) may use Node and test libraries; shipped code may not. */
const isTestCode = (f: string) => isTest(f) || /\/src\/(test|testing)\//.test(rel(f));

/** The top-level unit a path belongs to: `apps/api`, `libs/store`, `apps` (root files), `migrations`, … */
function unitOf(path: string): string {
  const parts = rel(path).split('/');
  if ((parts[0] === 'apps' || parts[0] === 'libs') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

function violations(): Violation[] {
  const out: Violation[] = [];
  const files = [...tsFiles(join(ROOT, 'apps')), ...tsFiles(join(ROOT, 'libs'))];
  const ADAPTERS = new Set(['libs/store', 'libs/queue', 'libs/kube']);
  const BASE = new Set(['libs/config', 'libs/common', 'libs/ssa-engine', 'libs/audit']);
  for (const file of files) {
    const from = unitOf(file);
    for (const spec of importsOf(file)) {
      const relative = spec.startsWith('.');
      const target = relative ? unitOf(resolve(dirname(file), spec)) : null;
      const v = (rule: string) => out.push({ file: rel(file), specifier: spec, rule });
      if (from === 'libs/ssa-engine' || from === 'libs/audit') {
        if (isTestCode(file)) continue;
        if (!relative) v(`${from} imports no package (not even node: built-ins)`);
        else if (from === 'libs/ssa-engine' && target !== 'libs/ssa-engine') v('libs/ssa-engine imports nothing outside itself');
        else if (from === 'libs/audit' && target !== 'libs/audit' && target !== 'libs/ssa-engine') v('libs/audit imports only libs/ssa-engine');
        continue;
      }
      if (!target) continue;
      if (from.startsWith('libs/') && (target === 'apps' || target.startsWith('apps/'))) v('libs never import apps');
      if (from.startsWith('apps/') && target.startsWith('apps/') && target !== from) v('apps never import each other');
      if (ADAPTERS.has(from) && ADAPTERS.has(target) && target !== from) v('adapter libs do not import each other');
      if (BASE.has(from) && ADAPTERS.has(target)) v(`${from} may not import an adapter lib`);
      if (target === 'libs/testing' && from !== 'libs/testing' && !isTest(file)) v('libs/testing is for tests only');
    }
  }
  return out;
}

/** The classes of libs/audit's `*.use-case.ts` files: the use cases. */
function useCaseClasses(): string[] {
  return tsFiles(join(ROOT, 'libs/audit/src'))
    .filter((f) => f.endsWith('.use-case.ts'))
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^export class (\w+)/gm)].map((m) => m[1]!));
}

/** Shipped adapter code that constructs a use case: the roles (apps) build them over the adapters, never an adapter itself. */
function useCasesBuiltInAdapters(): { file: string; useCase: string }[] {
  const names = useCaseClasses();
  const files = ['libs/store', 'libs/queue', 'libs/kube'].flatMap((lib) => tsFiles(join(ROOT, lib, 'src'))).filter((f) => !isTestCode(f));
  return files.flatMap((f) => {
    const src = readFileSync(f, 'utf8');
    return names.filter((n) => new RegExp(`\\bnew ${n}\\b`).test(src)).map((useCase) => ({ file: rel(f), useCase }));
  });
}

describe('architecture', () => {
  it('follows the dependency rules', () => {
    expect(violations()).toEqual([]);
  });

  it('builds no use case in an adapter lib (the domain decides, adapters execute)', () => {
    expect(useCaseClasses()).toEqual(expect.arrayContaining(['OwnershipProjector', 'AppendTimeProjection', 'ProjectEventsUseCase']));
    expect(useCasesBuiltInAdapters()).toEqual([]);
  });

  it('finds imports (the check is not vacuous)', () => {
    const found = importsOf(join(ROOT, 'apps/bootstrap.ts'));
    expect(found).toEqual(expect.arrayContaining(['./api/src/api.module.js', '../libs/store/src/index.js']));
  });

  it('checks libs/ssa-engine when it exists', () => {
    const engine = tsFiles(join(ROOT, 'libs/ssa-engine/src')).filter((f) => !isTestCode(f));
    expect(engine.length).toBeGreaterThan(20);
    for (const f of engine) expect(importsOf(f).filter((s) => !s.startsWith('.'))).toEqual([]);
  });
});
