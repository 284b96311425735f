import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../../config/src/index.js';
import { ACCESS_REVIEWER, TOKEN_REVIEWER } from '../../audit/src/index.js';
import { KubeAccessReviewer } from './kube-access-reviewer.js';
import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';
import { KubeTokenReviewer } from './kube-token-reviewer.js';
import { loadClusters } from './load-clusters.js';

/**
 * Provides the {@link TOKEN_REVIEWER} and {@link ACCESS_REVIEWER} of `AUTH_MODE=kubernetes`:
 * TokenReviews against the cluster of `AUTH_CLUSTER` (a kubeconfig context), else the first cluster
 * watched; SubjectAccessReviews in each object's own cluster. With `AUTH_MODE=none` both are `null`
 * (nothing is reviewed). Fails start-up when no cluster can authenticate.
 */
@Global()
@Module({})
export class KubeAuthModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: KubeAuthModule,
      providers: [
        { provide: AUTH_CLIENTS, useFactory: () => authClients(config) },
        { provide: TOKEN_REVIEWER, useFactory: (c: AuthClients | null) => c && new KubeTokenReviewer(c.home, config.auth), inject: [AUTH_CLIENTS] },
        { provide: ACCESS_REVIEWER, useFactory: (c: AuthClients | null) => c && new KubeAccessReviewer(c.all, c.home, config.auth), inject: [AUTH_CLIENTS] },
      ],
      exports: [TOKEN_REVIEWER, ACCESS_REVIEWER],
    };
  }
}

const AUTH_CLIENTS = Symbol('AUTH_CLIENTS');

interface AuthClients {
  /** The cluster that authenticates. */
  readonly home: KubeClient;
  /** Every cluster watched, by name: each object's access is reviewed in its own. */
  readonly all: readonly KubeClient[];
}

function authClients(config: AppConfig): AuthClients | null {
  if (config.auth.mode === 'none') return null;
  const all = loadClusters(config.kube);
  const home = config.auth.cluster ? loadClusters({ ...config.kube, contexts: [config.auth.cluster] })[0] : all[0];
  if (!home) throw new KubeError('CONFIG', 'AUTH_MODE=kubernetes needs a cluster to review tokens: no kubeconfig, no ~/.kube/config, not in a pod');
  return { home, all };
}
