import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { PortForward } from '@kubernetes/client-node';
import type { KubectlContext } from './kubectl-context.js';

/** A local listener whose connections are forwarded to a pod's port (what `kubectl port-forward` does). */
export interface PodPortForward {
  /** `http://127.0.0.1:<random port>` */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (a random port) and forwards each connection to `pod`:`port` through the apiserver. */
export async function forwardPodPort(context: KubectlContext, namespace: string, pod: string, port: number): Promise<PodPortForward> {
  const forward = new PortForward(context.config, true);
  // The open connections: fetch keeps them alive, and server.close() would wait for every one.
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A failed forward closes the connection (the client's request then fails and says so); a socket
    // destroyed with an error and no listener for it would crash the process instead.
    forward.portForward(namespace, pod, [port], socket, null, socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port: local } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${local}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
