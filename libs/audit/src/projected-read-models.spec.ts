import { explainChainStart, explainField, explainFieldOfProjected, explainStepSeq } from './explain-field.read-model.js';
import { valueEquals } from '../../ssa-engine/src/index.js';
import { fieldHistory, fieldHistoryOfValues, replayEvents } from './field-history.read-model.js';
import { eventsSchema, resolveEventsPath } from './field-path.util.js';
import type { FieldTransition } from './object-ownership.projection.js';
import type { ObservedEvent } from './observed-event.types.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';
import { valueAt } from './value-at.util.js';

/**
 * History and explain from what the projection keeps (the path's transitions, the owned fields, the
 * path's value after each event) and the objects of the events from `explainChainStart` on only,
 * against the fold of every event, over the recorded corpus: at the last event and halfway, paths
 * owned at some time up to then (every one for the incidents, three for the other cases); and the
 * incidents with the object deleted at the end.
 */
describe('history and explain from the projection agree with the fold', () => {
  const withDeletion = (events: readonly ObservedEvent[]): ObservedEvent[] => {
    const last = events.at(-1)!;
    return [...events, { ...last, seq: String(Number(last.seq) + 1), watchType: 'DELETED' }];
  };

  it('for every recorded case', () => {
    let explained = 0;
    let fromLaterEvent = 0;
    let fromChanges = 0;
    const wrong: string[] = [];
    for (const name of caseNames()) {
      const { events: all, resolver } = caseEvents(name);
      if (all.length === 0) continue;
      const prefixes = [all, all.slice(0, Math.ceil(all.length / 2))];
      if (name.startsWith('incident-')) prefixes.push(withDeletion(all));
      for (const events of prefixes) {
        const transitions: FieldTransition[] = [];
        const paths = new Set<string>();
        const state = replayEvents(events, resolver, (_e, s, ts) => {
          transitions.push(...ts);
          for (const f of s.fields) paths.add(f.fieldsV1Path);
        })!;
        const schema = eventsSchema(events, resolver);
        // Every path of the incidents; three of each other case's (the fold per path is what costs here).
        const picked = name.startsWith('incident-') ? [...paths] : [...paths].filter((_, i, a) => i === 0 || i === a.length - 1 || i === a.length >> 1);
        for (const path of picked) {
          const p = resolveEventsPath(events, path, resolver);
          const own = transitions.filter((t) => t.fieldsV1Path === p.fieldsV1Path);
          const values = events.map(({ object, ...event }) => ({ event, value: valueAt(object, p.elements) }));
          const history = fieldHistoryOfValues(p, values, own, schema);
          if (JSON.stringify(history) !== JSON.stringify(fieldHistory(events, path, resolver))) wrong.push(`history ${name} ${path} (${events.length} events)`);
          const start = explainChainStart(p, values, own);
          // The step found from the events where the value changes alone (the first, deletions and the event after each) is the one found from every event.
          const changes = values.filter((v, i) => {
            const before = values[i - 1];
            return !before || v.event.watchType === 'DELETED' || before.event.watchType === 'DELETED' || (v.value === undefined) !== (before.value === undefined) || (v.value !== undefined && !valueEquals(v.value, before.value!));
          });
          if (explainStepSeq(p, changes, own) !== explainStepSeq(p, values, own)) wrong.push(`step ${name} ${path} (${events.length} events, ${changes.length} changes)`);
          if (changes.length < values.length) fromChanges++;
          if (start > 0) fromLaterEvent++;
          const explanation = explainFieldOfProjected(p, schema, events.slice(start), own, state.fields, resolver);
          if (JSON.stringify(explanation) !== JSON.stringify(explainField(events, path, resolver))) wrong.push(`explain ${name} ${path} (${events.length} events, from ${start})`);
          explained++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(explained).toBeGreaterThan(2_000);
    // Most explanations need only the last events' objects.
    expect(fromLaterEvent).toBeGreaterThan(explained / 2);
    // Most paths keep their value over some events: the step is found from fewer.
    expect(fromChanges).toBeGreaterThan(explained / 2);
  });
});
