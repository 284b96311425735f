import { startBuiltService, type BuiltService } from './built-service.js';
import { KubectlSandbox } from './kubectl-sandbox.js';
import { createTestContext, type TestContext } from './test-context.js';

/** What `useBuiltService` starts; read it in tests and hooks (it exists once the beforeAll has run). */
export interface BuiltServiceOnSandbox {
  /** The sandbox the service watches, with the real kubectl to write to it. */
  readonly k: KubectlSandbox;
  readonly service: BuiltService;
}

/**
 * The end-to-end set-up of a describe block (call it in the block): a beforeAll that creates a test
 * context (`label`), starts a kubectl sandbox and the built service watching it (`env` added to the
 * service's environment), and an afterAll that stops them in the reverse order.
 */
export function useBuiltService(label: string, env: Record<string, string> = {}): BuiltServiceOnSandbox {
  let ctx: TestContext | undefined;
  let k: KubectlSandbox | undefined;
  let service: BuiltService | undefined;

  beforeAll(async () => {
    ctx = await createTestContext(label);
    k = await KubectlSandbox.start({ bookmarkIntervalMs: 500 });
    service = await startBuiltService(ctx, k.kubeconfig, env);
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await k?.close();
    await ctx?.dispose();
  }, 60_000);

  const started = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`${what} is not started: read it in a test or a hook`);
    return value;
  };
  return {
    get k() {
      return started('the kubectl sandbox', k);
    },
    get service() {
      return started('the built service', service);
    },
  };
}
