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

/** Copies the containers along `path` (copy-on-write) and deletes its leaf; the input stays untouched. */
function withoutPath(root: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !(head in root)) return root;
  const out = { ...root };
  if (rest.length === 0) delete out[head];
  else if (isRecord(out[head])) out[head] = withoutPath(out[head], rest);
  return out;
}

/**
 * The part of a body whose values count as a change: the union of `include` paths minus the
 * `exclude` paths. Returns a new value that may share unchanged subtrees with the body (treat it as
 * read-only); the body is not modified.
 */
export function selectTrackedValues(body: Record<string, unknown>, include: readonly string[], exclude: readonly string[]): unknown {
  let out: Record<string, unknown>;
  if (include.some((p) => p === '.')) {
    out = body;
  } else {
    out = {};
    for (const p of include) {
      const segs = segments(p);
      const v = getAt(body, segs);
      if (v !== undefined) setAt(out, segs, structuredClone(v));
    }
  }
  for (const p of exclude) {
    const segs = segments(p);
    if (segs.length === 0) return {};
    out = withoutPath(out, segs);
  }
  return out;
}
