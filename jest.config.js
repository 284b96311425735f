// Jest runs the TypeScript sources as native ES modules through SWC (no type-check; `npm run typecheck` does that).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
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
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    // Real Postgres and Redis of the machine; run with --runInBand (they share the database server).
    { ...common, displayName: 'int', testMatch: ['**/*.int-spec.ts'], testTimeout: 120_000 },
    // The built service as a child process (`npm run build` first: the test:e2e script does it).
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'], testTimeout: 180_000 },
  ],
};
