import { compareStrings } from '../value/compare.js';
import { encodeNumber, quoteHtmlSafe } from '../value/json-encode.js';
import { isMap, type Value, type ValueMap } from '../value/value.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The apiserver's limit on the total size of an object's annotations. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Go `encoding/json` of an unstructured value: map keys sorted, HTML-safe strings. */
export function goJson(v: Value): string {
  if (typeof v === 'string') return quoteHtmlSafe(v);
  if (typeof v === 'number') return encodeNumber(v);
  if (typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']';
  const m = v as ValueMap;
  return '{' + Object.keys(m).sort(compareStrings).map((k) => quoteHtmlSafe(k) + ':' + goJson(m[k]!)).join(',') + '}';
}

export function annotationsOf(obj: Value | undefined): ValueMap | undefined {
  const md = isMap(obj) ? obj['metadata'] : undefined;
  const a = isMap(md) ? md['annotations'] : undefined;
  return isMap(a) ? a : undefined;
}

export function hasLastApplied(obj: Value | undefined): boolean {
  const v = annotationsOf(obj)?.[LAST_APPLIED_ANNOTATION];
  return typeof v === 'string' && v.length > 0;
}

/**
 * The annotation value kubectl's apply leaves (05 §3 step 2): the applied config without that
 * annotation, encoded by Go's unstructured JSON scheme (sorted keys, trailing newline).
 */
export function buildLastApplied(config: ValueMap): string {
  const md = isMap(config['metadata']) ? { ...(config['metadata'] as ValueMap) } : undefined;
  const copy: Record<string, Value> = { ...config };
  if (md) {
    const ann = isMap(md['annotations']) ? { ...(md['annotations'] as ValueMap) } : undefined;
    if (ann) {
      delete ann[LAST_APPLIED_ANNOTATION];
      (md as Record<string, Value>)['annotations'] = ann;
    }
    copy['metadata'] = md;
  }
  return goJson(copy) + '\n';
}

/** Sets the annotation on `obj` (a fresh copy), or removes it when annotations would get too big. */
export function setLastApplied(obj: ValueMap, value: string): ValueMap {
  const md = { ...((obj['metadata'] as ValueMap) ?? {}) } as Record<string, Value>;
  const ann = { ...((md['annotations'] as ValueMap) ?? {}) } as Record<string, Value>;
  ann[LAST_APPLIED_ANNOTATION] = value;
  let size = 0;
  for (const [k, v] of Object.entries(ann)) size += k.length + (typeof v === 'string' ? v.length : 0);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete ann[LAST_APPLIED_ANNOTATION];
  md['annotations'] = ann;
  return { ...obj, metadata: md };
}
