import type { ValueMap } from '../value/value.js';

/** A recorded conformance case (`shared/conformance/cases/*.json`). */
export interface ConformanceCase {
  readonly name: string;
  readonly description?: string;
  /** `<apiVersion> <Kind>`, e.g. `apps/v1 Deployment`. */
  readonly kind: string;
  readonly schema: 'builtin' | 'deduced';
  readonly tags?: readonly string[];
  readonly steps: readonly ConformanceStep[];
}

export interface ExpectedConflict {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly subresource?: string;
  readonly path: string;
  readonly causeMessage: string;
}

export interface ConformanceStep {
  readonly op: 'apply' | 'update';
  readonly manager: string;
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly time: string;
  readonly force?: boolean;
  readonly patchType?: string;
  readonly patch?: unknown;
  readonly comment?: string;
  readonly object: ValueMap;
  readonly expect: {
    readonly object?: ValueMap;
    readonly conflicts?: readonly ExpectedConflict[];
    readonly message?: string;
    readonly status?: ValueMap;
    readonly error?: string;
  };
}
