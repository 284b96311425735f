import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { Cluster, type ClusterOptions } from './cluster.js';
import { HttpHandler, type RequestLogLine } from './http-handler.js';
import { selfSignedCertificate } from './tls.js';
import { SANDBOX_ADMIN_TOKEN } from './service-account-tokens.js';

export interface SandboxOptions extends ClusterOptions {
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Where to write a kubeconfig for the sandbox (current context set). */
  readonly kubeconfigPath?: string;
  /** Interval of BOOKMARK events on watches that allow them (default 60 s, like the apiserver). */
  readonly bookmarkIntervalMs?: number;
  /** Serve HTTPS with a generated self-signed certificate (the kubeconfig trusts it). */
  readonly tls?: boolean;
  /** Receives one line per finished request. */
  readonly log?: (line: RequestLogLine) => void;
  /** How long a read waits for a resourceVersion not reached yet before a 504 Too large resource version (default 3000, the apiserver's). */
  readonly freshnessWaitMs?: number;
  /** Serve this cluster instead of a new one: a closed sandbox's, to restart it with its state (objects, resourceVersions, identity). */
  readonly cluster?: Cluster;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`). */
  readonly url: string;
  /** The PEM certificate clients must trust, with `tls`. */
  readonly caCertificate?: string;
  readonly port: number;
  readonly kubeconfigPath?: string;
  /** The in-memory cluster behind the server (store, verbs); another one after `replace()`. */
  readonly cluster: Cluster;
  /** Forgets watch history: older resourceVersions then answer 410 Gone (reason Expired). */
  compact(): void;
  /**
   * A new cluster behind the same URL, as when a cluster is rebuilt: every object gone, served
   * resources back to the built-in ones, resourceVersions restarting low, the default namespaces
   * created again (`kube-system` with a new uid: the cluster's identity). Open connections are
   * closed, watches included, as a restarting apiserver closes them. Returns the new cluster.
   */
  replace(): Cluster;
  /** Stops serving and ends open watches. */
  close(): Promise<void>;
}

/** The kubeconfig that points kubectl (or any client) at a sandbox. */
export function sandboxKubeconfig(url: string, opts: { namespace?: string; caCertificate?: string } = {}): string {
  const ca = opts.caCertificate ? { 'certificate-authority-data': Buffer.from(opts.caCertificate).toString('base64') } : {};
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'ssa-sandbox', cluster: { server: url, ...ca } }],
    // The sandbox does no authentication; a token keeps kubectl from prompting for a password over HTTPS.
    users: [{ name: 'ssa-sandbox', user: { token: SANDBOX_ADMIN_TOKEN } }],
    contexts: [{ name: 'ssa-sandbox', context: { cluster: 'ssa-sandbox', user: 'ssa-sandbox', namespace: opts.namespace ?? 'default' } }],
    'current-context': 'ssa-sandbox',
    preferences: {},
  });
}

/** Starts a sandbox API server in this process. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  let cluster = opts.cluster ?? new Cluster(opts);
  const host = opts.host ?? '127.0.0.1';
  let address = '';
  const handler = new HttpHandler(cluster, {
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    serverAddress: () => address,
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.freshnessWaitMs !== undefined ? { freshnessWaitMs: opts.freshnessWaitMs } : {}),
    replace: () => replace(),
  });
  const tls = opts.tls ? await selfSignedCertificate(host) : undefined;
  const server: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler.handle) : createServer(handler.handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  function replace(): Cluster {
    cluster = new Cluster(opts);
    handler.replaceCluster(cluster);
    server.closeAllConnections();
    return cluster;
  }
  const port = (server.address() as AddressInfo).port;
  address = `${host}:${port}`;
  const url = `${tls ? 'https' : 'http'}://${address}`;
  if (opts.kubeconfigPath) {
    mkdirSync(dirname(opts.kubeconfigPath), { recursive: true });
    writeFileSync(opts.kubeconfigPath, sandboxKubeconfig(url, tls ? { caCertificate: tls.cert } : {}), { mode: 0o600 });
  }
  return {
    url,
    ...(tls ? { caCertificate: tls.cert } : {}),
    port,
    ...(opts.kubeconfigPath ? { kubeconfigPath: opts.kubeconfigPath } : {}),
    get cluster() {
      return cluster;
    },
    compact: () => cluster.store.compact(),
    replace,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
