import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * BENCH_ROLE_MEMORY_LIMIT runs each role a bench spawns in a memory cgroup of its own, as a pod's
 * memory limit does (`resources.limits.memory` in deploy/base): Node sizes its heap from that limit
 * (Node 20 caps it at about half), so the roles' memory can be measured as deployed rather than on a
 * host without limits. `512Mi` gives every role that limit; `worker=1Gi,api=512Mi,watcher=1Gi` one
 * per role (a role not named runs without). Needs a writable cgroup hierarchy (v1 `memory`, or v2
 * with the memory controller); the bench stops with a clear error where there is none.
 */
export function roleMemoryLimitBytes(role: string, setting = process.env['BENCH_ROLE_MEMORY_LIMIT']): number | null {
  if (!setting) return null;
  const parts = setting.split(',').map((p) => p.trim()).filter(Boolean);
  const named = parts.every((p) => p.includes('='));
  if (!named && parts.length !== 1) throw new Error(`BENCH_ROLE_MEMORY_LIMIT: one size for every role, or role=size pairs, not "${setting}"`);
  const size = named ? parts.map((p) => p.split('=')).find(([r]) => r === role)?.[1] : parts[0];
  return size === undefined ? null : parseQuantity(size);
}

/** A Kubernetes memory quantity in binary units (`384Mi`, `1Gi`), or bytes. */
function parseQuantity(text: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(text);
  if (!m) throw new Error(`BENCH_ROLE_MEMORY_LIMIT: "${text}" is not a size such as 512Mi or 1Gi`);
  return Number(m[1]) * { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, '': 1 }[m[2] ?? '']!;
}

/** A memory cgroup made for one role: the command that starts a process inside it, and its removal. */
export interface RoleCgroup {
  /** `command args…` wrapped so that the process enters the cgroup before Node starts (a shell that moves itself, then execs). */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** Removes the cgroup (after its process has exited). */
  remove(): void;
}

export function createRoleCgroup(name: string, limitBytes: number): RoleCgroup {
  const v1 = '/sys/fs/cgroup/memory';
  const v2 = '/sys/fs/cgroup';
  let dir: string;
  if (existsSync(join(v1, 'cgroup.procs'))) {
    dir = join(v1, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limitBytes));
  } else if (existsSync(join(v2, 'cgroup.controllers')) && readFileSync(join(v2, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('memory')) {
    dir = join(v2, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'memory.max'), String(limitBytes));
  } else {
    throw new Error('BENCH_ROLE_MEMORY_LIMIT: no writable memory cgroup hierarchy here (neither v1 /sys/fs/cgroup/memory nor v2 with the memory controller)');
  }
  const procs = join(dir, 'cgroup.procs');
  return {
    wrap: (command, args) => ({ command: '/bin/sh', args: ['-c', 'echo $$ > "$1" && shift && exec "$@"', 'sh', procs, command, ...args] }),
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // Still in use or gone: nothing to clean.
      }
    },
  };
}
