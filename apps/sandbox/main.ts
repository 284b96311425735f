/**
 * `npm run sandbox -- [--port 6443] [--host 127.0.0.1] [--kubeconfig data/sandbox.kubeconfig]
 * [--history-size N] [--http] [--verbose]`: the sandbox API server until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startSandbox } from '../../libs/sandbox/src/index.js';

/** Exit codes as the other entry points use them: 64 for a bad command line (EX_USAGE), 1 otherwise. */
function fail(message: string, code = 64): never {
  console.error(`sandbox: ${message}`);
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '6443' },
      host: { type: 'string', default: '127.0.0.1' },
      kubeconfig: { type: 'string', default: 'data/sandbox.kubeconfig' },
      'history-size': { type: 'string', default: '10000' },
      http: { type: 'boolean', default: false },
      verbose: { type: 'boolean', short: 'v', default: false },
    },
  }));
} catch (e) {
  fail((e as Error).message);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port: not a port number: ${values.port}`);
const historySize = Number(values['history-size']);
if (!Number.isInteger(historySize) || historySize < 1) fail(`--history-size: not a positive integer: ${values['history-size']}`);
const kubeconfigPath = resolve(values.kubeconfig);

try {
  const sandbox = await startSandbox({
    port,
    host: values.host,
    kubeconfigPath,
    tls: !values.http,
    historySize,
    // One JSON line per request on stderr: what kubectl (or a controller) sent and got.
    ...(values.verbose ? { log: (line) => console.error(JSON.stringify(line)) } : {}),
  });
  console.log(`sandbox API server on ${sandbox.url}; try: kubectl --kubeconfig ${kubeconfigPath} get namespaces`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  fail(`cannot serve on ${values.host}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1);
}
