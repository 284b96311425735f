import { FIELD, INDEX, KEY, VALUE, valueEquals, type Path, type Value } from '../../ssa-engine/src/index.js';

function isObject(v: unknown): v is Readonly<Record<string, Value>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(m: Readonly<Record<string, Value>>, k: string): Value | undefined {
  return Object.prototype.hasOwnProperty.call(m, k) ? m[k] : undefined;
}

/**
 * The value at `p` in a JSON object (`undefined` when absent); own keys only (`__proto__` safe). A
 * key element matches an item that lacks one of its key fields, as the engine's walk does.
 */
export function valueAt(obj: unknown, p: Path): Value | undefined {
  let v = obj as Value | undefined;
  for (const pe of p) {
    if (v === undefined || v === null) return undefined;
    switch (pe.kind) {
      case FIELD:
        v = isObject(v) ? own(v, pe.name) : undefined;
        break;
      case INDEX:
        v = Array.isArray(v) ? (v as readonly Value[])[pe.index] : undefined;
        break;
      case VALUE:
        v = Array.isArray(v) ? (v as readonly Value[]).find((x) => valueEquals(x, pe.value)) : undefined;
        break;
      case KEY:
        v = Array.isArray(v)
          ? (v as readonly Value[]).find((x) => isObject(x) && pe.pairs.every((kp) => own(x, kp.name) === undefined || valueEquals(own(x, kp.name)!, kp.value)))
          : undefined;
        break;
    }
  }
  return v;
}
