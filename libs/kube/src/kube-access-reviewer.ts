import { LRUCache } from 'lru-cache';
import { AuthError, type AccessReviewer, type Caller, type ResourceAccess } from '../../audit/src/index.js';
import type { KubeClient } from './kube-client.js';

interface SubjectAccessReviewStatus {
  readonly status?: { readonly allowed?: boolean; readonly denied?: boolean; readonly reason?: string };
}

/**
 * Asks a cluster whether a caller may do something, with a SubjectAccessReview
 * (authorization.k8s.io/v1) in the object's own cluster, as the apiserver's webhook authorizer does.
 * Answers are cached per cluster, user, groups, verb, group, resource, namespace and name for a short TTL.
 */
export class KubeAccessReviewer implements AccessReviewer {
  private readonly byCluster: Map<string, KubeClient>;
  private readonly cache: LRUCache<string, Promise<boolean>> | undefined;

  constructor(
    clients: readonly KubeClient[],
    private readonly home: KubeClient,
    options: { readonly cacheTtlMs: number; readonly cacheSize: number },
  ) {
    this.byCluster = new Map(clients.map((c) => [c.cluster, c]));
    this.cache = options.cacheTtlMs > 0 ? new LRUCache({ max: options.cacheSize, ttl: options.cacheTtlMs }) : undefined;
  }

  allowed(caller: Caller, cluster: string | null, access: ResourceAccess): Promise<boolean> {
    const client = cluster === null ? this.home : this.byCluster.get(cluster);
    if (!client) return Promise.resolve(false); // an object of a cluster no longer configured: nobody can be asked, nobody sees it
    const key = JSON.stringify([client.cluster, caller.username, caller.groups, access.verb, access.group, access.resource, access.namespace, access.name ?? null]);
    // The question in flight is cached too: a page of one namespace's objects asks the cluster once.
    const cached = this.cache?.get(key);
    if (cached !== undefined) return cached;
    const answer = this.review(client, caller, access);
    if (this.cache) {
      const cache = this.cache;
      cache.set(key, answer);
      answer.catch(() => cache.delete(key)); // a failed review is asked again next time
    }
    return answer;
  }

  private async review(client: KubeClient, caller: Caller, access: ResourceAccess): Promise<boolean> {
    let answer: SubjectAccessReviewStatus;
    try {
      answer = await client.json<SubjectAccessReviewStatus>('/apis/authorization.k8s.io/v1/subjectaccessreviews', {}, {
        method: 'POST',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: caller.username,
            uid: caller.uid || undefined,
            groups: caller.groups,
            resourceAttributes: {
              verb: access.verb,
              group: access.group,
              resource: access.resource,
              ...(access.namespace ? { namespace: access.namespace } : {}),
              ...(access.name ? { name: access.name } : {}),
            },
          },
        },
      });
    } catch (e) {
      throw new AuthError('auth-unavailable', `cluster ${client.cluster} could not review access: ${(e as Error).message}`);
    }
    return answer.status?.allowed === true && answer.status.denied !== true;
  }
}
