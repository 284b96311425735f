import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, type ProcessResult } from './run-process.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/src/index.js';

/** Test helper: the real kubectl against an in-process sandbox. Imported by tests only. */

export type KubectlResult = ProcessResult;

/** The kubectl binary the tests run (`KUBECTL` overrides the one on PATH). */
export const KUBECTL = process.env['KUBECTL'] ?? 'kubectl';
const KUBECTL_TEST_TIMEOUT_MS = 60_000;

function version(): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile(KUBECTL, ['version', '--client', '-o', 'json'], (err, stdout) => {
      if (err) return resolve(undefined);
      try {
        const v = JSON.parse(stdout) as { clientVersion?: { minor?: string } };
        resolve(Number.parseInt(v.clientVersion?.minor ?? '', 10));
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** The kubectl on PATH (`KUBECTL` overrides): its minor version, undefined when there is none. */
export const kubectlMinor: number | undefined = await version();

/**
 * `it` when the kubectl on PATH is at least 1.`minMinor`, else `it.skip` with the reason printed
 * (Debian's kubernetes-client is 1.20: no `--subresource` (1.24), no hidden managedFields (1.21),
 * no client-side→server-side apply migration (1.26), no OpenAPI v3 `explain` (1.27)).
 * `timeoutMs` is the test's time limit (60 s unless given).
 */
export function itWithKubectl(minMinor: number, why: string, timeoutMs = KUBECTL_TEST_TIMEOUT_MS): (name: string, fn: () => Promise<void>) => void {
  // Each test runs several kubectl processes (one a watch of a few seconds) on a small machine.
  if (kubectlMinor !== undefined && kubectlMinor >= minMinor) return (name, fn) => it(name, fn, timeoutMs);
  const have = kubectlMinor === undefined ? `no ${KUBECTL} on PATH` : `kubectl is 1.${kubectlMinor}`;
  console.warn(`skipping a kubectl test: ${have}; it needs 1.${minMinor}+ for ${why}`);
  return it.skip;
}

/** A sandbox, a kubeconfig for it and a private kubectl cache directory. */
export class KubectlSandbox {
  private constructor(
    readonly sandbox: Sandbox,
    private readonly dir: string,
  ) {}

  static async start(opts: SandboxOptions = {}): Promise<KubectlSandbox> {
    const dir = mkdtempSync(join(tmpdir(), 'ssa-sandbox-'));
    const sandbox = await startSandbox({ ...opts, port: 0, kubeconfigPath: join(dir, 'kubeconfig') });
    return new KubectlSandbox(sandbox, dir);
  }

  get kubeconfig(): string {
    return join(this.dir, 'kubeconfig');
  }

  /** Runs kubectl with this sandbox's kubeconfig; `input` goes to stdin (`-f -`). */
  kubectl(args: readonly string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<KubectlResult> {
    return runProcess(KUBECTL, ['--kubeconfig', this.kubeconfig, '--cache-dir', join(this.dir, 'cache'), ...args], {
      input: opts.input,
      env: { ...process.env, ...opts.env, KUBECONFIG: this.kubeconfig },
    });
  }

  /** Runs kubectl and fails with its stderr unless it exits 0. */
  async ok(args: readonly string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<string> {
    const r = await this.kubectl(args, opts);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout;
  }

  /** `kubectl get -o json` of one object. */
  async getJson(...args: string[]): Promise<KubeJson> {
    // kubectl 1.21+ hides managedFields unless asked; older ones always show them.
    const show = kubectlMinor !== undefined && kubectlMinor >= 21 ? ['--show-managed-fields'] : [];
    return JSON.parse(await this.ok(['get', ...args, '-o', 'json', ...show])) as KubeJson;
  }

  async close(): Promise<void> {
    await this.sandbox.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface ManagedFieldsEntryJson {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

export type KubeJson = Record<string, any> & { metadata: Record<string, any> & { managedFields?: ManagedFieldsEntryJson[] } };

/** The managedFields entries as `manager/operation[/subresource]` → fieldsV1, to assert on. */
export function owners(obj: KubeJson): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const e of obj.metadata.managedFields ?? []) out[[e.manager, e.operation, ...(e.subresource ? [e.subresource] : [])].join('/')] = e.fieldsV1;
  return out;
}
