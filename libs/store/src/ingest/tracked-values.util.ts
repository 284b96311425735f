/** A value path in dot form: `.` is the whole object, `.spec.replicas` one field. */
function segments(path: string): string[] {
  return path === '.' ? [] : path.slice(1).split('.');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function getAt(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const s of path) {
    if (!isRecord(cur) || !(s in cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = target;
  for (const s of path.slice(0, -1)) {
    if (!isRecord(cur[s])) cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

function deleteAt(target: Record<string, unknown>, path: readonly string[]): void {
  let cur: unknown = target;
  for (const s of path.slice(0, -1)) {
    if (!isRecord(cur)) return;
    cur = cur[s];
  }
  if (isRecord(cur)) delete cur[path[path.length - 1]!];
}

/**
 * The part of a body whose values count as a change: the union of `include` paths minus the
 * `exclude` paths. Returns a new value; the body is not modified.
 */
export function selectTrackedValues(body: Record<string, unknown>, include: readonly string[], exclude: readonly string[]): unknown {
  let out: Record<string, unknown> = {};
  for (const p of include) {
    const segs = segments(p);
    if (segs.length === 0) {
      out = structuredClone(body);
      break;
    }
    const v = getAt(body, segs);
    if (v !== undefined) setAt(out, segs, structuredClone(v));
  }
  for (const p of exclude) {
    const segs = segments(p);
    if (segs.length === 0) return {};
    deleteAt(out, segs);
  }
  return out;
}
