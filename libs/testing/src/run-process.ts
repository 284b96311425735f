import { spawn } from 'node:child_process';

export interface ProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to its end, `input` on stdin, and answers its exit code and output. */
export function runProcess(command: string, args: readonly string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ProcessResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env: opts.env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
