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
  roots: ['libs', 'apps', 'test'].filter((d) => existsSync(d)).map((d) => `<rootDir>/${d}`),
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...common, displayName: 'int', testMatch: ['**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'] },
  ],
};
