import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { AuthError, type TokenReview, type TokenReviewer } from '../../audit/src/index.js';
import type { KubeClient } from './kube-client.js';

interface TokenReviewStatus {
  readonly status?: {
    readonly authenticated?: boolean;
    readonly error?: string;
    readonly user?: { readonly username?: string; readonly uid?: string; readonly groups?: readonly string[] };
  };
}

export interface KubeTokenReviewerOptions {
  /** `spec.audiences` of every review (empty: the apiserver's own audiences). */
  readonly audiences: readonly string[];
  /** How long an answer is reused (0: never cached), and how many answers are kept (least recently used go first). */
  readonly cacheTtlMs: number;
  readonly cacheSize: number;
}

/**
 * Validates bearer tokens with a TokenReview (authentication.k8s.io/v1) against one cluster, as the
 * apiserver's webhook token authenticator does. Answers, accepted or not, are cached for a short TTL
 * in a bounded cache keyed by the token's SHA-256 (the token itself is not kept). A cluster that
 * cannot be asked is `auth-unavailable`, never a refusal.
 */
export class KubeTokenReviewer implements TokenReviewer {
  private readonly cache: LRUCache<string, TokenReview> | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly options: KubeTokenReviewerOptions,
  ) {
    this.cache = options.cacheTtlMs > 0 ? new LRUCache({ max: options.cacheSize, ttl: options.cacheTtlMs }) : undefined;
  }

  async review(token: string): Promise<TokenReview> {
    const key = createHash('sha256').update(token).digest('base64');
    const cached = this.cache?.get(key);
    if (cached) return cached;
    let answer: TokenReviewStatus;
    try {
      answer = await this.client.json<TokenReviewStatus>('/apis/authentication.k8s.io/v1/tokenreviews', {}, {
        method: 'POST',
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          spec: { token, ...(this.options.audiences.length > 0 ? { audiences: this.options.audiences } : {}) },
        },
      });
    } catch (e) {
      throw new AuthError('auth-unavailable', `cluster ${this.client.cluster} could not review the token: ${(e as Error).message}`);
    }
    const s = answer.status ?? {};
    const review: TokenReview =
      s.authenticated === true && typeof s.user?.username === 'string' && s.user.username !== ''
        ? { authenticated: true, caller: { username: s.user.username, uid: s.user.uid ?? '', groups: [...(s.user.groups ?? [])] } }
        : { authenticated: false, reason: s.error ? `the token was not accepted: ${s.error}` : 'the token was not accepted (unknown, expired or for another audience)' };
    this.cache?.set(key, review);
    return review;
  }
}
