import { evolveObjectOwnership, type FieldTransition, type ObjectOwnershipState } from '../../../audit/src/index.js';
import { caseEvents, caseNames } from '../../../audit/src/testing/conformance-events.js';
import { recordsetParam } from './recordset-param.js';
import { transitionFromRow, transitionRow, type TransitionRow } from './transition-row.js';

/** A row as Postgres gives it back: through JSON, `seq` as text, `at` a Date. */
const readBack = (t: FieldTransition): TransitionRow => {
  const row = JSON.parse(JSON.stringify(transitionRow(t, 0))) as TransitionRow & { at: string };
  return { ...row, at: new Date(row.at) };
};

/** What reading gives for `t`: its time as the timestamptz column returns it (the rest unchanged). */
const asRead = (t: FieldTransition): string => JSON.stringify({ ...t, at: new Date(t.at).toISOString() });

describe('field_transitions rows', () => {
  const all: FieldTransition[] = [];
  for (const name of caseNames()) {
    const { events, resolver } = caseEvents(name);
    let state: ObjectOwnershipState | undefined;
    for (const e of events) {
      const r = evolveObjectOwnership(state, e, resolver);
      all.push(...r.transitions);
      state = r.state;
    }
  }

  it('reads back every transition of every recorded case as the fold made it, JSON text for JSON text', () => {
    expect(all.length).toBeGreaterThan(100);
    for (const t of all) expect(JSON.stringify(transitionFromRow(readBack(t)))).toBe(asRead(t));
  });

  it('leaves out what is usual: no losers, the actor the only owner, not reconstructed, no notes', () => {
    const plain = all.find((t) => t.from.length === 0 && t.notes.length === 0 && !t.reconstructed && t.owners.length === 1 && t.manager === t.owners[0]!.manager);
    expect(plain).toBeDefined();
    expect(transitionRow(plain!, 0)['transition']).toEqual({ apiVersion: plain!.apiVersion, valueChanged: plain!.valueChanged });
    const shared = all.find((t) => t.owners.length > 1 && t.from.length > 0);
    expect(shared).toBeDefined();
    expect(Object.keys(transitionRow(shared!, 0)['transition'] as object)).toEqual(expect.arrayContaining(['from', 'owners']));
  });

  it('keeps a path or a manager holding U+0000 exactly in the json, with stand-ins in the text columns a path lookup never finds', () => {
    const t = all.find((x) => x.manager !== null && x.owners.length === 1)!;
    const nul: FieldTransition = { ...t, path: `${t.path}.a\u0000b`, fieldsV1Path: `${t.fieldsV1Path}.f:a\u0000b`, manager: `ev\u0000il`, owners: [{ ...t.owners[0]!, manager: 'ev\u0000il' }] };
    const row = transitionRow(nul, 0);
    const columns = ['path', 'fields_v1_path', 'manager', 'operation', 'subresource'].map((c) => row[c] as string | null);
    expect(columns.some((c) => c !== null && c.includes('\u0000'))).toBe(false);
    expect(row['fields_v1_path']).toBe(`nul:${t.fieldsV1Path}.f:a\uFFFDb`);
    expect(recordsetParam([row], ['transition'])).not.toMatch(/"(path|fields_v1_path|manager)":"[^"]*\\u0000/);
    expect(JSON.stringify(transitionFromRow(readBack(nul)))).toBe(asRead(nul));
    // A manager alone holding one: the path keeps its column, so the path's transitions find it; a lone surrogate is a stand-in too.
    const byManager = transitionRow({ ...t, manager: 'ev\u0000il\ud800', owners: [{ ...t.owners[0]!, manager: 'ev\u0000il\ud800' }] }, 0);
    expect([byManager['fields_v1_path'], byManager['manager']]).toEqual([t.fieldsV1Path, 'ev\uFFFDil\uFFFD']);
    expect(JSON.stringify(transitionFromRow(readBack({ ...t, manager: 'ev\u0000il\ud800', owners: [{ ...t.owners[0]!, manager: 'ev\u0000il\ud800' }] })).manager)).toBe('"ev\\u0000il\\ud800"');
    // Without U+0000 nothing changes: the row is as before.
    expect(transitionRow(t, 0)['transition']).not.toHaveProperty('exact');
  });

  it('reads rows written with every key, as before', () => {
    const t = all.find((x) => x.owners.length === 1)!;
    const row = { ...readBack(t), transition: { apiVersion: t.apiVersion, from: t.from, owners: t.owners, valueChanged: t.valueChanged, reconstructed: t.reconstructed, notes: t.notes } };
    expect(JSON.stringify(transitionFromRow(row))).toBe(asRead(t));
  });
});
