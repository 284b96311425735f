import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../libs/config/src/index.js';
import type { Logger } from '../libs/common/src/index.js';
import type { Sandbox } from '../libs/sandbox/src/index.js';

/** No KUBECONFIG, no ~/.kube/config, not in a pod: there is no cluster to watch. */
export function noClusterConfigured(config: AppConfig): boolean {
  return config.kube.kubeconfig.length === 0 && !config.kube.inCluster && !existsSync(join(homedir(), '.kube', 'config'));
}

/**
 * The zero-setup default of `npm start`: with no cluster configured, start the sandbox API server
 * in-process, write its kubeconfig under the data directory and watch it. Returns the config that
 * points the watcher at it, and the running sandbox (closed with the application).
 */
export async function startDefaultSandbox(config: AppConfig, logger: Logger): Promise<{ config: AppConfig; sandbox: Sandbox }> {
  const dataDir = config.database.kind === 'embedded' ? config.database.dataDir : './data';
  mkdirSync(dataDir, { recursive: true });
  const kubeconfigPath = join(dataDir, 'sandbox.kubeconfig');
  // Loaded only here: the roles a deployment runs never load the sandbox (nor its TLS certificate generator).
  const { startSandbox } = await import('../libs/sandbox/src/index.js');
  const sandbox = await startSandbox({ port: 0, tls: true, kubeconfigPath });
  logger.info({ url: sandbox.url, kubeconfig: kubeconfigPath }, 'no cluster configured: watching an in-process sandbox cluster');
  // stderr: stdout carries only the JSON log lines.
  process.stderr.write(
    `No cluster configured: ssa-audit is watching a sandbox cluster. Drive it with kubectl: kubectl --kubeconfig ${kubeconfigPath} apply --server-side -f <manifest>\n`,
  );
  return { config: { ...config, kube: { ...config.kube, kubeconfig: [kubeconfigPath] } }, sandbox };
}
