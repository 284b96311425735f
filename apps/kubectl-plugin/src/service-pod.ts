/** The parts of a Service the port-forward needs. */
export interface ServiceLike {
  readonly metadata?: { readonly name?: string };
  readonly spec?: {
    readonly selector?: Readonly<Record<string, string>>;
    readonly ports?: readonly { readonly name?: string; readonly port: number; readonly targetPort?: number | string }[];
  };
}

/** The parts of a Pod the port-forward needs. */
export interface PodLike {
  readonly metadata?: { readonly name?: string; readonly deletionTimestamp?: string };
  readonly spec?: { readonly containers?: readonly { readonly ports?: readonly { readonly name?: string; readonly containerPort: number }[] }[] };
  readonly status?: { readonly phase?: string; readonly conditions?: readonly { readonly type: string; readonly status: string }[] };
}

export type PodChoice = { readonly ok: true; readonly pod: string; readonly port: number } | { readonly ok: false; readonly reason: string };

/** `a=b,c=d`: the label selector of a Service's `spec.selector`. */
export function labelSelectorOf(service: ServiceLike): string | undefined {
  const sel = service.spec?.selector;
  if (!sel || Object.keys(sel).length === 0) return undefined;
  return Object.entries(sel)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

const isReady = (p: PodLike) =>
  p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The container port a Service port targets in `pod`: a number as is, a name looked up in its containers. */
export function containerPortOf(target: number | string, pod: PodLike): number | undefined {
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? []) for (const p of c.ports ?? []) if (p.name === target) return p.containerPort;
  return undefined;
}

/**
 * What `kubectl port-forward svc/NAME` picks: a ready pod behind the Service (running, Ready, not
 * being deleted; the first by name, so the choice is stable) and the container port of the Service's
 * `portName` port (else its first port).
 */
export function choosePodForService(service: ServiceLike, pods: readonly PodLike[], portName = 'http'): PodChoice {
  const name = service.metadata?.name ?? 'the Service';
  const ports = service.spec?.ports ?? [];
  const port = ports.find((p) => p.name === portName) ?? ports[0];
  if (!port) return { ok: false, reason: `Service ${name} has no ports` };
  const ready = pods.filter(isReady).sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  if (ready.length === 0) return { ok: false, reason: `no ready pod behind Service ${name} (${pods.length} pod(s) selected, none Running and Ready)` };
  for (const pod of ready) {
    const target = containerPortOf(port.targetPort ?? port.port, pod);
    if (target !== undefined) return { ok: true, pod: pod.metadata!.name!, port: target };
  }
  return { ok: false, reason: `no ready pod behind Service ${name} has a container port named "${String(port.targetPort)}"` };
}
