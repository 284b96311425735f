import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { pathToHuman } from '../fieldpath/field-set.js';
import { indexElement, type PathElement } from '../fieldpath/path-element.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import type { ScalarType } from '../schema/schema.js';
import { isMap, type Value, type ValueMap } from '../value/value.js';
import { deduceFacets, handlerOf, LIST, MAP, SCALAR } from './atom.js';
import { fieldPE, listItemPE } from './list-item.js';

export type ValidationIssueCode =
  | 'type-mismatch'
  | 'field-not-declared'
  | 'duplicate-key'
  | 'invalid-list-item'
  | 'schema-error';

/** One problem found in an object, with the human-form path where it was found. */
export interface ValidationIssue {
  readonly code: ValidationIssueCode;
  readonly path: string;
  readonly message: string;
}

export interface ValidateOptions {
  /** Live and Update objects may hold duplicate list items; applied configurations may not. */
  readonly allowDuplicates?: boolean;
}

export type ValidationResult = { readonly success: true } | { readonly success: false; readonly issues: readonly ValidationIssue[] };

/** Validates `value` against `type` (03 §3) and returns every issue found. */
export function safeValidate(value: Value, type: ResolvedType, opts: ValidateOptions = {}): ValidationResult {
  const issues: ValidationIssue[] = [];
  walk(value, type, [], issues, opts.allowDuplicates ?? false);
  return issues.length === 0 ? { success: true } : { success: false, issues };
}

/** Throwing form of `safeValidate`: an `SsaEngineError` with code `validation`. */
export function validate(value: Value, type: ResolvedType, opts: ValidateOptions = {}): void {
  const r = safeValidate(value, type, opts);
  if (!r.success) throw new SsaEngineError('validation', formatIssues(r.issues), r.issues[0]!.path);
}

/** The message Go's ValidationErrors prints: one issue as `path: msg`, several as a list. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const one = (i: ValidationIssue) => (i.path ? `${i.path}: ${i.message}` : i.message);
  if (issues.length === 1) return one(issues[0]!);
  return ['errors:', ...issues.map((i) => '  ' + one(i))].join('\n');
}

function goKind(v: Value): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/**
 * The value as an issue message shows it. A hostile value nested too deeply for `JSON.stringify`
 * (which throws a raw RangeError) is reported as the engine's `too-deep` error instead.
 */
function show(v: Value): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (e instanceof RangeError) throw new SsaEngineError('too-deep', `object nested deeper than ${MAX_DEPTH} levels`);
    throw e;
  }
}

/** Scalar check shared by validation, compare and merge (03 §3); null is valid everywhere. */
export function scalarIssue(t: ScalarType, v: Value | undefined): string | undefined {
  if (v === undefined || v === null) return undefined;
  const k = typeof v;
  switch (t) {
    case 'numeric':
      return k === 'number' ? undefined : `expected numeric (int or float), got ${goKind(v)}`;
    case 'string':
      return k === 'string' ? undefined : `expected string, got ${show(v)}`;
    case 'boolean':
      return k === 'boolean' ? undefined : `expected boolean, got ${show(v)}`;
    case 'untyped':
      return k === 'number' || k === 'string' || k === 'boolean' ? undefined : `expected any scalar, got ${show(v)}`;
    default:
      return `unexpected scalar type in schema: ${String(t)}`;
  }
}

function walk(v: Value, t: ResolvedType, path: PathElement[], out: ValidationIssue[], allowDup: boolean): void {
  if (path.length > MAX_DEPTH) throw new SsaEngineError('too-deep', `object nested deeper than ${MAX_DEPTH} levels`);
  const add = (code: ValidationIssueCode, message: string): void => {
    out.push({ code, path: pathToHuman(path), message });
  };
  const h = handlerOf(deduceFacets(t, v));
  switch (h) {
    case SCALAR: {
      const msg = scalarIssue(t.scalar!, v);
      if (msg) add('type-mismatch', msg);
      return;
    }
    case LIST: {
      if (v === null) return;
      if (!Array.isArray(v)) return add('type-mismatch', `expected list, got ${show(v)}`);
      const l = t.list!;
      const seen = new Set<string>();
      for (let i = 0; i < v.length; i++) {
        const item = v[i]!;
        let pe: PathElement;
        if (!l.associative) pe = indexElement(i);
        else {
          const r = listItemPE(l, item);
          if (typeof r === 'string') return add('invalid-list-item', `element ${i}: ${r}`);
          pe = r;
          if (seen.has(pe.str) && !allowDup) add('duplicate-key', `duplicate entries for key ${pathToHuman([pe])}`);
          seen.add(pe.str);
        }
        path.push(pe);
        walk(item, l.elementType, path, out, allowDup);
        path.pop();
      }
      return;
    }
    case MAP: {
      if (v === null) return;
      if (!isMap(v)) return add('type-mismatch', `expected map, got ${show(v)}`);
      const m = t.map!;
      for (const key of Object.keys(v)) {
        const f = m.fields.get(key);
        const ft = f ? f.type : m.elementType;
        path.push(fieldPE(key));
        if (!ft) {
          add('field-not-declared', 'field not declared in schema');
          path.pop();
          return;
        }
        walk((v as ValueMap)[key]!, ft, path, out, allowDup);
        path.pop();
      }
      return;
    }
    default:
      add('schema-error', `schema error: invalid atom: ${t.name}`);
  }
}
