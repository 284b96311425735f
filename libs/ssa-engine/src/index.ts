/**
 * ssa-engine: Kubernetes Server-Side Apply field ownership, in pure TypeScript.
 * The public API, by pipeline stage (see README.md beside this folder).
 */

// Errors
export { SsaEngineError, type SsaEngineErrorCode, MAX_DEPTH } from './errors.js';

// Values
export type { Value, ValueMap } from './value/value.js';
export { compareValues, valueEquals, compareStrings } from './value/compare.js';

// Field paths and sets
export {
  FIELD,
  KEY,
  VALUE,
  INDEX,
  fieldName,
  keyElement,
  valueElement,
  indexElement,
  comparePE,
  peEquals,
  peToHuman,
  parsePE,
  type PathElement,
  type FieldNameElement,
  type KeyElement,
  type ValueElement,
  type IndexElement,
  type KeyPair,
} from './fieldpath/path-element.js';
export { FieldSet, FieldSetBuilder, pathToHuman, type Path } from './fieldpath/field-set.js';
export { parseFieldsV1, serializeFieldsV1, fieldsV1Object, type FieldsV1 } from './fieldpath/fields-v1.js';
export { parseHumanPath, parseFieldsV1Path, PathParseError } from './fieldpath/parse-path.js';

// managedFields
export {
  decodeManagedFields,
  encodeManagedFields,
  entryIdentity,
  parseIdentity,
  compareEntries,
  isResetManagedFields,
  type ManagedFieldsEntry,
  type ManagerEntry,
  type Managers,
  type Operation,
  type FieldsV1Order,
} from './managed-fields/managed-fields.js';

// Schemas
export type { SchemaDocument, TypeDef, TypeRef, Atom, ListType, MapType, StructField, ScalarType, ElementRelationship } from './schema/schema.js';
export { UNTYPED_ATOMIC, UNTYPED_DEDUCED } from './schema/schema.js';
export { Schema, ResolvedType, DEDUCED_SCHEMA, DEDUCED_TYPE, type ResolvedField, type ResolvedList, type ResolvedMap } from './schema/resolved-schema.js';
export { BUILTIN_SCHEMA, BUILTIN_SCHEMA_DOCUMENT, BUILTIN_SCHEMA_VERSION, builtinTypeName, isBuiltinKind } from './schema/builtin-schema.js';
export {
  schemaFromOpenApi,
  safeSchemaFromOpenApi,
  safeSchemaFromDefinitions,
  openApiDefinitions,
  findTypeForGvk,
  schemaFromCrd,
  safeSchemaFromCrd,
  type OpenApiConversionOptions,
  type SchemaConversionResult,
  type SchemaConversionIssue,
  type CrdConversionOptions,
  type CrdConversionResult,
  type GroupVersionKind,
} from './schema/from-openapi.js';
export { typeClosure } from './schema/type-closure.js';

// Typed objects
export { toFieldSet } from './typed/to-field-set.js';
export { validate, safeValidate, formatIssues, type ValidationIssue, type ValidationIssueCode, type ValidationResult, type ValidateOptions } from './typed/validate.js';
export { compare, type Comparison } from './typed/compare.js';
export { merge } from './typed/merge.js';
export { removeItems } from './typed/remove-items.js';
export { ensureNamedFieldsAreMembers } from './typed/ensure-named-fields.js';
export { reconcileWithSchema } from './typed/reconcile-schema.js';

// Update and Apply
export { smdUpdate, smdApply, type WriteContext, type ApplyResult } from './merge/updater.js';
export { ConflictError, conflictMessage, conflictStatus, managerDisplay, type Conflict } from './merge/conflict.js';

// Conversion between API versions of a kind (04 §0, §1, §3.4)
export { builtinConverterFor, canConvert, type VersionConverter } from './conversion/converter.js';
export { convertHpa, HPA_ROUND_TRIP_ANNOTATIONS } from './conversion/hpa-v1-v2.js';

// The apiserver around them
export { FieldManager, type FieldManagerOptions, type KubeObject } from './apiserver/field-manager.js';
export { updateScale, type ScaleOptions } from './apiserver/scale.js';
export { resetFieldsFor, hasStatusSubresource } from './apiserver/reset-fields.js';
export { restoreUnchangedTimestamps } from './apiserver/restore-timestamps.js';
export { normalizerFor, type Normalizer } from './apiserver/normalize.js';
export { capUpdateManagers } from './apiserver/cap-managers.js';
export { LAST_APPLIED_ANNOTATION, buildLastApplied } from './apiserver/last-applied.js';
export { encodeBuiltinObject, type BuiltinEncodingTarget } from './encoding/encode-builtin-object.js';

// Conformance replay
export { replayCase, runStep, checkStep, type CaseResult, type StepOutcome, type StepMismatch } from './conformance/replay-case.js';
export type { ConformanceCase, ConformanceStep, ExpectedConflict } from './conformance/conformance-case.js';

// Ownership analysis (07): snapshot diff → transitions, owners, "why is it still here"
export * from './ownership/index.js';
