import { existsSync } from 'node:fs';

// Jest runs the TypeScript sources as native ES modules through SWC (no type-check; `npm run typecheck` does that).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
      // Keep `with { type: 'json' }` on JSON imports (the engine bundles schema data as JSON).
      experimental: { keepImportAttributes: true },
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  rootDir: '.',
  // Only the roots that exist yet (jest refuses a missing root).
  roots: ['libs', 'apps', 'test'].filter((d) => existsSync(d)).map((d) => `<rootDir>/${d}`),
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    // Real Postgres and Redis of the machine; run with --runInBand (they share the database server).
    // Time limits are set on the command line (--testTimeout): jest 30 ignores testTimeout inside a project.
    { ...common, displayName: 'int', testMatch: ['**/*.int-spec.ts'] },
    // The built service as a child process (`npm run build` first: the test:e2e script does it).
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'] },
  ],
};
