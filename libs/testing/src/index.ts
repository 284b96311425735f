export { createTestDatabase, type TestDatabase } from './test-database.js';
export { TEST_SENSITIVE_HASH_KEY, createTestContext, type TestContext } from './test-context.js';
export { deploymentManagedFields, deploymentObservation, scaledBy, secretObservation, type DeploymentShape } from './observation.factory.js';
export { waitFor } from './wait-for.js';
export { freePort } from './free-port.js';

export { caseObservations, caseStep, type CaseObservations } from './conformance-observations.js';
export { SandboxWriter, type Written } from './sandbox-writer.js';
export { storedHistory, type StoredStep } from './stored-history.js';
export { startFlakyProxy, type FlakyProxy } from './flaky-proxy.js';
export { startTempPostgres, type TempPostgres, type TempPostgresOptions } from './temp-postgres.js';
export { startTempRedis, type TempRedis } from './temp-redis.js';
export { startBuiltService, type BuiltService } from './built-service.js';
export { runProcess, type ProcessResult } from './run-process.js';
