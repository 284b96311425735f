import { randomBytes, randomUUID } from 'node:crypto';
import { SUPERUSER_GROUP, type UserInfo } from './rbac-authorizer.js';

/** The bearer token of the kubeconfig `startSandbox` writes: a superuser. */
export const SANDBOX_ADMIN_TOKEN = 'ssa-sandbox';
/** Who the admin token (and a request with no credentials at all) is. */
export const SANDBOX_ADMIN: UserInfo = { username: 'sandbox-admin', groups: [SUPERUSER_GROUP, 'system:authenticated'] };
/** The apiserver's own audience (`--api-audiences`, kube-apiserver's default with the default service-account-issuer). */
export const API_AUDIENCES: readonly string[] = ['https://kubernetes.default.svc.cluster.local'];
/** What a token lives when the TokenRequest says nothing (`spec.expirationSeconds`: 1 h). */
export const DEFAULT_TOKEN_SECONDS = 3600;

/** A token the sandbox issued for a ServiceAccount (by TokenRequest). */
export interface IssuedToken {
  readonly namespace: string;
  readonly serviceAccount: string;
  /** The ServiceAccount's uid: the token dies with the object, as a bound token does. */
  readonly uid: string;
  readonly audiences: readonly string[];
  readonly expires: Date;
  /** The token's own id (a JWT's `jti`). */
  readonly id: string;
}

/**
 * The tokens the sandbox issued: opaque random strings (`sbx-` + 43 base64url characters; not JWTs),
 * remembered in memory with their ServiceAccount, audiences and expiry. A new cluster forgets them.
 */
export class ServiceAccountTokens {
  private readonly issued = new Map<string, IssuedToken>();

  constructor(private readonly now: () => Date) {}

  issue(sa: { namespace: string; name: string; uid: string }, audiences: readonly string[], expirationSeconds: number): { token: string; issued: IssuedToken } {
    const token = `sbx-${randomBytes(32).toString('base64url')}`;
    const issued: IssuedToken = {
      namespace: sa.namespace,
      serviceAccount: sa.name,
      uid: sa.uid,
      audiences: [...audiences],
      expires: new Date(this.now().getTime() + expirationSeconds * 1000),
      id: randomUUID(),
    };
    this.issued.set(token, issued);
    return { token, issued };
  }

  /** The token's record, `expired` past its expiry, undefined when the sandbox never issued it. */
  lookup(token: string): IssuedToken | 'expired' | undefined {
    const t = this.issued.get(token);
    if (!t) return undefined;
    if (t.expires.getTime() <= this.now().getTime()) return 'expired';
    return t;
  }
}
