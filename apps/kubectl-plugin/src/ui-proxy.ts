import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A local HTTP proxy in front of the service that adds the user's credentials to every request. */
export interface UiProxy {
  /** `http://127.0.0.1:<random port>` */
  readonly url: string;
  close(): Promise<void>;
}

/** The headers sent upstream: the caller's, with Authorization replaced by the user's token and Host by the service's. */
export function upstreamHeaders(incoming: IncomingHttpHeaders, upstream: URL, token: string | undefined): IncomingHttpHeaders {
  const { authorization: _a, host: _h, connection: _c, ...rest } = incoming;
  return { ...rest, host: upstream.host, ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

/** Listens on 127.0.0.1 only (a random port): whoever reaches it acts with the user's credentials. */
export async function startUiProxy(target: string, token: string | undefined): Promise<UiProxy> {
  const upstream = new URL(target);
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    const out = send(url, { method: req.method, headers: upstreamHeaders(req.headers, upstream, token) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'proxy-error', message: `ssa-audit service at ${target}: ${e.message}` }));
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
