/** Who is asking: a user as the cluster authenticated them (TokenReview's `status.user`). */
export interface Caller {
  readonly username: string;
  readonly uid: string;
  readonly groups: readonly string[];
}

/** The caller of every request when authentication is off (`AUTH_MODE=none`, loopback only). */
export const ANONYMOUS_CALLER: Caller = { username: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };

/** What a token review answered: the caller, or why the token is not accepted. */
export type TokenReview = { readonly authenticated: true; readonly caller: Caller } | { readonly authenticated: false; readonly reason: string };

/** Port: asks the cluster who a bearer token belongs to (a TokenReview); throws when the cluster cannot answer. */
export interface TokenReviewer {
  review(token: string): Promise<TokenReview>;
}

/** Injection token of the {@link TokenReviewer}. */
export const TOKEN_REVIEWER = Symbol('TOKEN_REVIEWER');
