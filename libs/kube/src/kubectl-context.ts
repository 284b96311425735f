import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

/** What the user's kubeconfig can hand to another service as `Authorization: Bearer`. */
export type ForwardableCredentials =
  | { readonly kind: 'bearer'; readonly token: string }
  /** A client certificate proves who you are to the apiserver only: it cannot be re-sent as a token. */
  | { readonly kind: 'client-certificate' }
  | { readonly kind: 'none' };

/**
 * The context kubectl would use (KUBECONFIG or ~/.kube/config, `--kubeconfig`, `--context`), as a
 * kubectl plugin needs it: a client for the cluster, the context's namespace, and the user's own
 * credentials (static tokens and exec credential plugins alike: client-node applies them).
 */
export class KubectlContext {
  private constructor(
    /** @internal the loaded kubeconfig (client-node's), for port-forwards */
    readonly config: KubeConfig,
    readonly contextName: string,
    /** The context's namespace, undefined when it sets none (kubectl then uses `default`). */
    readonly namespace: string | undefined,
    readonly client: KubeClient,
  ) {}

  static load(opts: { kubeconfig?: string; context?: string } = {}): KubectlContext {
    const kc = new KubeConfig();
    try {
      if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
      else kc.loadFromDefault();
    } catch (e) {
      throw new KubeError('CONFIG', `cannot read the kubeconfig: ${(e as Error).message}`);
    }
    const client = KubeClient.forContext(kc, opts.context);
    const contextName = kc.getCurrentContext();
    const namespace = kc.getContextObject(contextName)?.namespace || undefined;
    return new KubectlContext(kc, contextName, namespace, client);
  }

  /** The bearer token the apiserver would get from this user (an exec plugin runs now), if there is one. */
  async credentials(): Promise<ForwardableCredentials> {
    const options: { headers: Record<string, string>; cert?: unknown; key?: unknown } = { headers: {} };
    try {
      await this.config.applyToHTTPSOptions(options as never);
    } catch (e) {
      throw new KubeError('CONFIG', `the kubeconfig user's credentials: ${(e as Error).message}`);
    }
    const header = Object.entries(options.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    const token = header?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (token) return { kind: 'bearer', token };
    if (options.cert || options.key) return { kind: 'client-certificate' };
    return { kind: 'none' };
  }
}
