import { runPlugin } from './program.js';

// kubectl runs `kubectl-ssa_audit` (bin/) for `kubectl ssa-audit …`: that launcher imports this file.

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

// Only `ui` waits for this: other commands keep Ctrl-C's default (exit at once).
const interrupted = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

const code = await runPlugin(process.argv.slice(2), {
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  write: (s) => void process.stdout.write(s),
  writeError: (s) => void process.stderr.write(s),
  readStdin,
  interrupted,
});
// Let stdout drain (a pipe may still hold the answer), then exit: client-node may keep sockets open.
process.stdout.write('', () => process.exit(code));
