import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { itWithKubectl, KUBECTL } from '../../libs/testing/src/kubectl-sandbox.js';

describe('npm run sandbox (the CLI entry point)', () => {
  itWithKubectl(18, 'talking to the sandbox')('serves HTTPS on the given port and writes a kubeconfig kubectl can use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const child = spawn(join('node_modules', '.bin', 'tsx'), ['apps/sandbox/main.ts', '--port', '0', '--kubeconfig', kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out);
        });
        child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
      });
      expect(line).toMatch(/^sandbox API server on https:\/\/127\.0\.0\.1:\d+; try: kubectl --kubeconfig .+ get namespaces\n$/);
      expect(readFileSync(kubeconfig, 'utf8')).toContain('current-context: ssa-sandbox');
      const out = execFileSync(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', 'namespaces', '-o', 'name'], { encoding: 'utf8' });
      expect(out).toBe('namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n');
    } finally {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
