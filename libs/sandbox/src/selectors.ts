import { badRequest } from './api-error.js';

/** One requirement of a label selector. */
export type LabelRequirement =
  | { readonly op: 'in' | 'notin'; readonly key: string; readonly values: readonly string[] }
  | { readonly op: 'exists' | '!'; readonly key: string };

export type Selector = (target: Readonly<Record<string, string>>) => boolean;

/** Splits on commas outside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

const KEY = /^([a-zA-Z0-9]([-a-zA-Z0-9.]*[a-zA-Z0-9])?\/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string, raw: string): string {
  if (!KEY.test(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}" in "${raw}"`);
  return key;
}

function checkValue(v: string, raw: string): string {
  if (!VALUE.test(v)) throw badRequest(`unable to parse requirement: invalid label value: "${v}" in "${raw}"`);
  return v;
}

/** Parses a label selector (`a=b,c!=d,e in (f,g),!h,i`); throws a 400 ApiError when malformed. */
export function parseLabelSelector(s: string): LabelRequirement[] {
  return splitTerms(s).map((raw) => {
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(raw);
    if (m) {
      const values = m[3]!.split(',').map((v) => checkValue(v.trim(), raw));
      return { op: m[2] as 'in' | 'notin', key: checkKey(m[1]!, raw), values };
    }
    if ((m = /^!\s*(\S+)$/.exec(raw))) return { op: '!', key: checkKey(m[1]!, raw) };
    if ((m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(raw))) {
      const value = checkValue(m[3]!, raw);
      return { op: m[2] === '!=' ? 'notin' : 'in', key: checkKey(m[1]!, raw), values: [value] };
    }
    if (/^[^\s=!(),]+$/.test(raw)) return { op: 'exists', key: checkKey(raw, raw) };
    throw badRequest(`unable to parse requirement: found '${raw}', expected: identifier`);
  });
}

/** A predicate over labels for a label selector string (empty: everything). */
export function labelSelector(s: string | undefined): Selector {
  if (!s) return () => true;
  const reqs = parseLabelSelector(s);
  return (labels) =>
    reqs.every((r) => {
      const has = Object.prototype.hasOwnProperty.call(labels, r.key);
      switch (r.op) {
        case 'exists':
          return has;
        case '!':
          return !has;
        case 'in':
          return has && r.values.includes(labels[r.key]!);
        case 'notin':
          return !has || !r.values.includes(labels[r.key]!);
      }
    });
}

/**
 * A predicate for a field selector (`metadata.name=x,status.phase!=Running`) over an object's
 * selectable fields, given as dotted paths to string values.
 */
export function fieldSelector(s: string | undefined, supported: (field: string) => boolean): Selector {
  if (!s) return () => true;
  const reqs = splitTerms(s).map((raw) => {
    const m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(raw);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${raw}'`);
    if (!supported(m[1]!)) throw badRequest(`field label not supported: ${m[1]}`);
    return { field: m[1]!, neg: m[2] === '!=', value: m[3]!.trim() };
  });
  return (fields) => reqs.every((r) => (fields[r.field] === r.value) !== r.neg);
}

/** The string fields of an object a field selector can name: `metadata.name`, `metadata.namespace`, `spec.x`, `status.y`. */
export function selectableFields(obj: Record<string, unknown>, extra: readonly string[]): Record<string, string> {
  const md = (obj['metadata'] ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = { 'metadata.name': String(md['name'] ?? ''), 'metadata.namespace': String(md['namespace'] ?? '') };
  for (const path of extra) {
    let v: unknown = obj;
    for (const p of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
    out[path] = v === undefined || v === null ? '' : String(v);
  }
  return out;
}
