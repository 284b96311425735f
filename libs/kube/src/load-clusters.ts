import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

export interface ClusterSource {
  /** Kubeconfig files (KUBECONFIG); none means ~/.kube/config when it exists. */
  readonly kubeconfig: readonly string[];
  /** Contexts to watch, one cluster each; none means the current context. */
  readonly contexts: readonly string[];
  /** Use the pod's service account (set when running inside a cluster and no kubeconfig is given). */
  readonly inCluster: boolean;
}

/** One client per cluster to watch; empty when nothing is configured and there is no ~/.kube/config. */
export function loadClusters(source: ClusterSource): KubeClient[] {
  const files = source.kubeconfig.length > 0 ? [...source.kubeconfig] : [join(homedir(), '.kube', 'config')].filter((f) => existsSync(f));
  if (files.length === 0) return source.inCluster ? [KubeClient.inCluster()] : [];
  const texts = files.map((f) => {
    try {
      return readFileSync(f, 'utf8');
    } catch (e) {
      throw new KubeError('CONFIG', `cannot read kubeconfig ${f}: ${(e as Error).message}`);
    }
  });
  const contexts = source.contexts.length > 0 ? source.contexts : [undefined];
  return contexts.map((context) => {
    const kc = new KubeConfig();
    kc.loadFromString(texts[0]!);
    for (const t of texts.slice(1)) {
      const more = new KubeConfig();
      more.loadFromString(t);
      kc.mergeConfig(more, true);
    }
    return KubeClient.forContext(kc, context);
  });
}
