import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startSandbox } from '../../libs/sandbox/src/index.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '6443' },
    host: { type: 'string', default: '127.0.0.1' },
    kubeconfig: { type: 'string', default: 'data/sandbox.kubeconfig' },
    'history-size': { type: 'string' },
    http: { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: not a port number: ${values.port}`);
  process.exit(2);
}
const kubeconfigPath = resolve(values.kubeconfig);
const sandbox = await startSandbox({
  port,
  host: values.host,
  kubeconfigPath,
  tls: !values.http,
  ...(values['history-size'] ? { historySize: Number(values['history-size']) } : {}),
});
console.log(`sandbox API server on ${sandbox.url}; try: kubectl --kubeconfig ${kubeconfigPath} get namespaces`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
