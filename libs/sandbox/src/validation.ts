import type { StatusCause } from './api-error.js';
import type { ResourceType } from './resource-type.js';
import { type Obj, isObject } from './json.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Kinds whose names must be DNS-1123 labels (or DNS-1035 for Services), not subdomains. */
const LABEL_NAMED = new Set(['v1/Namespace', 'apps/v1/Deployment', 'apps/v1/StatefulSet']);

/** The ObjectMeta checks of the apiserver's validation that matter to clients (422 causes). */
export function validateObjectMeta(rt: ResourceType, obj: Obj, name: string): Required<StatusCause>[] {
  const causes: Required<StatusCause>[] = [];
  const md = isObject(obj['metadata']) ? obj['metadata'] : {};
  if (!name) {
    causes.push({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
    return causes;
  }
  const key = `${rt.apiVersion}/${rt.kind}`;
  if (key === 'v1/Service') {
    if (!DNS1035_LABEL.test(name) || name.length > 63)
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        field: 'metadata.name',
      });
  } else if (LABEL_NAMED.has(key)) {
    if (!DNS1123_LABEL.test(name) || name.length > 63)
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        field: 'metadata.name',
      });
  } else if (!DNS1123_SUBDOMAIN.test(name) || name.length > 253) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      field: 'metadata.name',
    });
  }
  for (const k of ['labels', 'annotations']) {
    const m = md[k];
    if (m === undefined || m === null) continue;
    if (!isObject(m)) {
      causes.push({ reason: 'FieldValueInvalid', message: 'Invalid value: must be a map of strings', field: `metadata.${k}` });
      continue;
    }
    for (const [lk, lv] of Object.entries(m))
      if (typeof lv !== 'string') causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(lv)}: must be a string`, field: `metadata.${k}.${lk}` });
  }
  return causes;
}
