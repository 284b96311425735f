/**
 * Regenerates the engine's bundled data for built-in kinds from the conformance corpus's schema
 * folder (`../shared/conformance/schema`, relative to the repository root):
 *
 * - `k8s-v1.36.3-smd-schema.yaml` → `libs/ssa-engine/src/schema/builtin/k8s-v1.36.3.schema.json`
 * - `k8s-v1.36.3-json-encoding.json` → `libs/ssa-engine/src/encoding/builtin/k8s-v1.36.3.json-encoding.json`
 *
 * The output is compact JSON, deterministic (document order is kept as in the source). Run with
 * `npm run generate:schema`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const VERSION = 'k8s-v1.36.3';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = resolve(repoRoot, '../shared/conformance/schema');
const engineSrc = resolve(repoRoot, 'libs/ssa-engine/src');

function writeCompact(target: string, data: unknown): void {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(data)}\n`);
  console.log(`wrote ${target}`);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const schema: unknown = parse(readFileSync(resolve(sourceDir, `${VERSION}-smd-schema.yaml`), 'utf8'));
if (!isRecord(schema) || !Array.isArray(schema['types'])) {
  throw new Error('smd schema: expected a document with a `types` list');
}
writeCompact(resolve(engineSrc, `schema/builtin/${VERSION}.schema.json`), schema);

const encoding: unknown = JSON.parse(readFileSync(resolve(sourceDir, `${VERSION}-json-encoding.json`), 'utf8'));
if (!isRecord(encoding) || !isRecord(encoding['types'])) {
  throw new Error('json encoding: expected a document with a `types` object');
}
writeCompact(resolve(engineSrc, `encoding/builtin/${VERSION}.json-encoding.json`), encoding);
