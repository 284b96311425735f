import { KubectlContext } from '../../../libs/kube/src/kubectl-context.js';
import { forwardPodPort } from '../../../libs/kube/src/pod-port-forward.js';
import { failed } from './plugin.error.js';
import { ServiceClient } from './service-client.js';
import { choosePodForService, labelSelectorOf, type PodLike, type ServiceLike } from './service-pod.js';

/** Where the service is and how to reach it (flags first, then the environment). */
export interface ConnectionOptions {
  readonly server?: string | undefined;
  readonly token?: string | undefined;
  readonly serviceNamespace: string;
  readonly serviceName: string;
}

export interface ServiceConnection {
  readonly client: ServiceClient;
  /** The bearer token sent with every request, if any (the ui proxy adds it too). */
  readonly token: string | undefined;
  close(): Promise<void>;
}

const CLIENT_CERTIFICATE =
  'your kubeconfig user authenticates with a client certificate, which proves who you are to the apiserver only and cannot be forwarded as a bearer token';

/**
 * The service at `--server` (or SSA_AUDIT_SERVER), else through a port-forward to a ready pod behind
 * the `serviceName` Service in `serviceNamespace` of the current context. Every request carries the
 * user's own credentials from the kubeconfig (token or exec plugin), so the service's RBAC applies.
 */
export async function connectToService(kube: KubectlContext, opts: ConnectionOptions): Promise<ServiceConnection> {
  let token = opts.token;
  let missingTokenReason: string | undefined;
  if (!token) {
    const creds = await kube.credentials();
    if (creds.kind === 'bearer') token = creds.token;
    else missingTokenReason = creds.kind === 'client-certificate' ? CLIENT_CERTIFICATE : 'your kubeconfig user has no token';
  }
  if (opts.server) {
    const client = new ServiceClient(opts.server, token, missingTokenReason);
    return { client, token, close: async () => undefined };
  }
  const { serviceNamespace: ns, serviceName: name } = opts;
  const service = await kube.client.json<ServiceLike>(`/api/v1/namespaces/${ns}/services/${name}`).catch((e: Error) => {
    throw failed(`no ssa-audit service found: Service ${ns}/${name} in context ${kube.contextName}: ${e.message} (pass --server URL or set SSA_AUDIT_SERVER, or --service-namespace/--service-name)`);
  });
  const selector = labelSelectorOf(service);
  if (!selector) throw failed(`Service ${ns}/${name} has no selector: cannot find a pod to port-forward to (pass --server URL)`);
  const pods = await kube.client.json<{ items?: PodLike[] }>(`/api/v1/namespaces/${ns}/pods`, { labelSelector: selector });
  const choice = choosePodForService(service, pods.items ?? []);
  if (!choice.ok) throw failed(`${choice.reason} (pass --server URL)`);
  const forward = await forwardPodPort(kube, ns, choice.pod, choice.port);
  return { client: new ServiceClient(forward.url, token, missingTokenReason), token, close: () => forward.close() };
}
