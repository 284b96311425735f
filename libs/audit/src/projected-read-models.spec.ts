import { explainChainStart, explainField, explainFieldOfProjected } from './explain-field.read-model.js';
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
  });
});
