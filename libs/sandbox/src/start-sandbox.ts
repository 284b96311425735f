import { createServer, type Server } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { Cluster, type ClusterOptions } from './cluster.js';
import { HttpHandler } from './http-handler.js';

export interface SandboxOptions extends ClusterOptions {
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Where to write a kubeconfig for the sandbox (current context set). */
  readonly kubeconfigPath?: string;
  /** Interval of BOOKMARK events on watches that allow them (default 60 s, like the apiserver). */
  readonly bookmarkIntervalMs?: number;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  readonly kubeconfigPath?: string;
  /** The in-memory cluster behind the server (store, verbs). */
  readonly cluster: Cluster;
  /** Forgets watch history: older resourceVersions then answer 410 Gone (reason Expired). */
  compact(): void;
  /** Stops serving and ends open watches. */
  close(): Promise<void>;
}

/** The kubeconfig that points kubectl (or any client) at a sandbox. */
export function sandboxKubeconfig(url: string, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'ssa-sandbox', cluster: { server: url } }],
    users: [{ name: 'ssa-sandbox', user: {} }],
    contexts: [{ name: 'ssa-sandbox', context: { cluster: 'ssa-sandbox', user: 'ssa-sandbox', namespace } }],
    'current-context': 'ssa-sandbox',
    preferences: {},
  });
}

/** Starts a sandbox API server in this process. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const cluster = new Cluster(opts);
  const host = opts.host ?? '127.0.0.1';
  let address = '';
  const handler = new HttpHandler(cluster, { bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000, serverAddress: () => address });
  const server: Server = createServer(handler.handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  address = `${host}:${port}`;
  const url = `http://${address}`;
  if (opts.kubeconfigPath) {
    mkdirSync(dirname(opts.kubeconfigPath), { recursive: true });
    writeFileSync(opts.kubeconfigPath, sandboxKubeconfig(url), { mode: 0o600 });
  }
  return {
    url,
    port,
    ...(opts.kubeconfigPath ? { kubeconfigPath: opts.kubeconfigPath } : {}),
    cluster,
    compact: () => cluster.store.compact(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
