import { parseFieldsV1, serializeFieldsV1 } from '../fieldpath/fields-v1.js';
import { compareStrings } from '../value/compare.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { safeValidate } from '../typed/validate.js';
import type { ValueMap } from '../value/value.js';
import { caseType, loadCases, STRIPPED_METADATA, type Entry } from '../test/test-support.js';
import { replayCase } from './replay-case.js';

const CASES = loadCases();

describe('conformance corpus', () => {
  it('has the 431 recorded cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(431);
  });

  it.each(CASES.map((x) => [x.file, x.c] as const))('%s replays without mismatch', (_file, c) => {
    const { mismatches } = replayCase(c);
    if (mismatches.length > 0) {
      const m = mismatches[0]!;
      throw new Error(`step ${m.step}: ${m.reason}\nexpected: ${m.expected}\nactual:   ${m.actual}\n(${mismatches.length} mismatches)`);
    }
    expect(mismatches).toEqual([]);
  });
});

function expectedEntries(c: (typeof CASES)[number]['c']): Entry[] {
  return c.steps.flatMap((s) => ((s.expect.object?.['metadata'] as ValueMap | undefined)?.['managedFields'] as unknown as Entry[] | undefined) ?? []);
}

/** A FieldsV1 object with every object's keys in byte order (how a Go map re-encodes it). */
function sortedKeysJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  return '{' + Object.keys(o).sort(compareStrings).map((k) => JSON.stringify(k) + ':' + sortedKeysJson(o[k])).join(',') + '}';
}

/**
 * Every entry re-serialises to exactly its bytes, with one recorded exception: after a write
 * through the `scale` subresource the apiserver re-encodes the entries through a Go
 * `map[string]interface{}`, so their FieldsV1 keys come out in byte order (`k:{"containerPort":443…}`
 * before `k:{"containerPort":53…}`) instead of element order, until the entry is rewritten. Such an
 * entry must then equal the byte-ordered form, and only at or after a scale step.
 */
describe('FieldsV1 byte-exact round trip of every expected managedFields entry', () => {
  it('covers the 4,841 entries', () => {
    expect(CASES.reduce((n, x) => n + expectedEntries(x.c).length, 0)).toBe(4841);
  });

  it.each(CASES.map((x) => [x.file, x.c] as const))('%s', (_file, c) => {
    const bad: string[] = [];
    let afterScale = false;
    c.steps.forEach((s, i) => {
      if (s.subresource === 'scale') afterScale = true;
      const mf = ((s.expect.object?.['metadata'] as ValueMap | undefined)?.['managedFields'] as unknown as Entry[] | undefined) ?? [];
      for (const e of mf) {
        const want = JSON.stringify(e.fieldsV1);
        const got = serializeFieldsV1(parseFieldsV1(e.fieldsV1!));
        if (got === want) continue;
        if (afterScale && sortedKeysJson(JSON.parse(got)) === want) continue;
        bad.push(`step ${i} ${e.manager}/${e.operation}:\n  want ${want}\n  got  ${got}`);
      }
    });
    expect(bad).toEqual([]);
  });
});

/**
 * For a successful apply, the applier's entry is exactly the field set of the applied
 * configuration minus the stripped metadata paths (05 §3 step 8; 04 §3: the applier's set is
 * replaced by the config's set). Steps excluded, with the reason:
 *  - steps that expect a conflict or an error (nothing was applied);
 *  - configs that do not validate against the schema (the apiserver rejects them);
 *  - steps on a subresource (the status/scale endpoints reset fields, 05 §6);
 *  - steps where the expected object has no Apply entry for the applier: the set was empty after
 *    stripping (applying only identity fields, 08#22), so the entry was removed.
 */
describe('applier entry = toFieldSet(config) − stripped metadata', () => {
  it.each(CASES.map((x) => [x.file, x.c] as const))('%s', (_file, c) => {
    const type = caseType(c);
    const bad: string[] = [];
    c.steps.forEach((s, i) => {
      if (s.op !== 'apply' || !s.expect.object || (s.subresource ?? '') !== '') return;
      if (!safeValidate(s.object, type, { allowDuplicates: false }).success) return;
      const mf = ((s.expect.object['metadata'] as ValueMap | undefined)?.['managedFields'] as unknown as Entry[] | undefined) ?? [];
      const e = mf.find((x) => x.manager === s.manager && x.operation === 'Apply' && (x.subresource ?? '') === '');
      const want = toFieldSet(s.object, type).difference(STRIPPED_METADATA);
      if (!e) {
        if (!want.isEmpty) bad.push(`step ${i}: no Apply entry for ${s.manager}, config set ${JSON.stringify(want.toHumanPaths())}`);
        return;
      }
      const got = parseFieldsV1(e.fieldsV1 ?? {});
      if (!got.equals(want)) bad.push(`step ${i}: entry ${serializeFieldsV1(got)}\n  config ${serializeFieldsV1(want)}`);
    });
    expect(bad).toEqual([]);
  });
});
