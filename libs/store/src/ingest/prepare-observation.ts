import type { KeyObject } from 'node:crypto';
import type { CaptureConfig } from '../../../config/src/index.js';
import { redactObservation, sha256, type Observation } from '../../../common/src/index.js';
import { splitManagedFields, type SplitManagedFields } from './managed-fields.util.js';
import { selectTrackedValues } from './tracked-values.util.js';
import { storedBody, type Body } from './body.util.js';

/** An observation redacted and hashed, ready to be compared with its object's last event. */
export interface PreparedObservation {
  readonly observation: Observation;
  readonly managedFields: SplitManagedFields;
  /** Hash of the tracked values (never stored as a blob: only compared). */
  readonly valuesHash: Buffer;
  readonly body: Body;
}

/** Pure and CPU-only: runs before the transaction opens. */
export function prepareObservation(raw: Observation, capture: CaptureConfig, hashKey: KeyObject): PreparedObservation {
  const observation = redactObservation(raw, capture.sensitiveKinds, hashKey);
  const body = storedBody(observation.object);
  const tracked = selectTrackedValues(body, capture.trackedValuePaths, capture.untrackedValuePaths);
  return {
    observation,
    managedFields: splitManagedFields(observation.object.metadata.managedFields),
    // JSON in the key order received: the apiserver's encoding is stable for an unchanged object.
    valuesHash: sha256(JSON.stringify(tracked)),
    body,
  };
}
