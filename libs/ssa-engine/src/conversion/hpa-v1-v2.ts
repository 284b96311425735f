/**
 * HorizontalPodAutoscaler between `autoscaling/v1` and `autoscaling/v2`, as the apiserver converts
 * it through its internal version (kubernetes pkg/apis/autoscaling/v1/conversion.go,
 * pkg/apis/autoscaling/v2/conversion.go, pkg/apis/autoscaling/helpers.go). The internal version
 * has the v2 shape, so v2 stands in for it here:
 *
 * - `spec.targetCPUUtilizationPercentage` ↔ the first `Resource` metric named `cpu` with an
 *   `averageUtilization` target; a v1 object without it and without other metrics gets the
 *   implicit default of 80 % when read as v2.
 * - Everything v1 has no field for travels in annotations of the v1 object: the other metrics
 *   (`autoscaling.alpha.kubernetes.io/metrics`, in the v1 alpha metric shape), all current
 *   metrics (`…/current-metrics`), the conditions (`…/conditions`) and the behavior
 *   (`…/behavior`, the internal Go type marshalled without JSON tags). Reading v1 folds them back
 *   and drops them; v2 never shows them.
 *
 * Results are encoded as the Go types would encode them (`encodeBuiltinObject`), which is what
 * the structured-merge layer compares.
 */
import { encodeBuiltinObject } from '../encoding/encode-builtin-object.js';
import { BUILTIN_JSON_ENCODING } from '../encoding/builtin-json-encoding.js';
import { encodeGoJson } from '../encoding/encode-go-json.js';
import { canonicalQuantity } from '../encoding/quantity.js';
import { encodeNumber, quoteHtmlSafe } from '../value/json-encode.js';
import { isList, isMap, setKey, type Value, type ValueMap } from '../value/value.js';

export const HPA_V1 = 'autoscaling/v1';
export const HPA_V2 = 'autoscaling/v2';
export const HPA_VERSIONS: readonly string[] = [HPA_V1, HPA_V2];

/** The round-trip annotations of a v1 HorizontalPodAutoscaler (pkg/apis/autoscaling/annotations.go). */
export const HPA_ROUND_TRIP_ANNOTATIONS = {
  metrics: 'autoscaling.alpha.kubernetes.io/metrics',
  currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
  conditions: 'autoscaling.alpha.kubernetes.io/conditions',
  behavior: 'autoscaling.alpha.kubernetes.io/behavior',
} as const;

const V1_TYPE = 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler';
const V2_TYPE = 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler';
const LABEL_SELECTOR = 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector';
const DEFAULT_CPU_UTILIZATION = 80;

type Obj = Record<string, Value>;

/** Converts an HPA between v1 and v2; `undefined` for anything else. */
export function convertHpa(object: Value, from: string, to: string): Value | undefined {
  if (!isMap(object)) return undefined;
  if (from === to) return object;
  if (from === HPA_V2 && to === HPA_V1) return encodeBuiltinObject(internalToV1(withoutRoundTrip(object)), V1_TYPE) as Value;
  if (from === HPA_V1 && to === HPA_V2) return encodeBuiltinObject(v1ToInternal(object), V2_TYPE) as Value;
  return undefined;
}

// ---- small helpers -------------------------------------------------------------------------

/** A member as Go's `encoding/json` finds it: exact name first, then case-insensitively. */
function field(o: Value | undefined, name: string): Value | undefined {
  if (!isMap(o)) return undefined;
  if (Object.prototype.hasOwnProperty.call(o, name)) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function map(o: Value | undefined): ValueMap {
  return isMap(o) ? o : {};
}

function list(o: Value | undefined): readonly Value[] {
  return isList(o) ? o : [];
}

/** Members whose value is not `undefined`, in order (a Go struct with its fields). */
function struct(entries: [string, Value | undefined][]): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

function quantity(v: Value | undefined): Value | undefined {
  if (v === undefined || v === null) return undefined;
  try {
    return canonicalQuantity(v as string | number);
  } catch {
    return v;
  }
}

/** A non-pointer Quantity: the zero value is `0`. */
function quantityOrZero(v: Value | undefined): Value {
  return quantity(v) ?? '0';
}

function selector(v: Value | undefined): Value | undefined {
  if (!isMap(v)) return undefined;
  try {
    return encodeGoJson(BUILTIN_JSON_ENCODING, LABEL_SELECTOR, v) as Value;
  } catch {
    return v;
  }
}

/** `json.Marshal` of a value built in Go struct order: members kept in order, HTML-safe strings. */
function goMarshal(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return quoteHtmlSafe(v);
  if (typeof v === 'number') return encodeNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isList(v)) return '[' + v.map(goMarshal).join(',') + ']';
  const m = v as ValueMap;
  return '{' + Object.keys(m).map((k) => quoteHtmlSafe(k) + ':' + goMarshal(m[k]!)).join(',') + '}';
}

function parseJson(s: Value | undefined): Value | undefined {
  if (typeof s !== 'string') return undefined;
  try {
    return JSON.parse(s) as Value;
  } catch {
    return undefined;
  }
}

function annotations(o: ValueMap): ValueMap {
  return map(field(map(o['metadata']), 'annotations'));
}

const ROUND_TRIP_NAMES: readonly string[] = Object.values(HPA_ROUND_TRIP_ANNOTATIONS);

/** The members of `ann` that `keep`, as own members (`__proto__` included). */
function copyAnnotations(ann: ValueMap, keep: (name: string) => boolean): Obj {
  const out: Obj = {};
  for (const k of Object.keys(ann)) if (keep(k)) setKey(out, k, ann[k]!);
  return out;
}

/** helpers.go DropRoundTripHorizontalPodAutoscalerAnnotations: the object without the four annotations. */
function withoutRoundTrip(o: ValueMap): ValueMap {
  const ann = annotations(o);
  if (!Object.keys(ann).some((k) => ROUND_TRIP_NAMES.includes(k))) return o;
  return { ...o, metadata: { ...map(o['metadata']), annotations: copyAnnotations(ann, (k) => !ROUND_TRIP_NAMES.includes(k)) } };
}

function withAnnotations(o: Obj, extra: Obj): Obj {
  if (Object.keys(extra).length === 0) return o;
  const md = map(o['metadata']);
  const ann = Object.assign(copyAnnotations(map(md['annotations']), () => true), extra);
  return { ...o, metadata: { ...md, annotations: ann } };
}

function isCpuUtilization(m: Value): boolean {
  const r = field(m, 'resource');
  return field(m, 'type') === 'Resource' && isMap(r) && r['name'] === 'cpu' && isNum(field(map(r['target']), 'averageUtilization'));
}

function isNum(v: Value | undefined): v is number {
  return typeof v === 'number';
}

/** The members both versions share, in Go struct order, with each version's own spec and status members after them. */
function hpaObject(o: ValueMap, apiVersion: string, specOwn: [string, Value | undefined][], statusOwn: [string, Value | undefined][]): Obj {
  const spec = map(o['spec']);
  const status = map(o['status']);
  return struct([
    ['kind', 'HorizontalPodAutoscaler'],
    ['apiVersion', apiVersion],
    ['metadata', o['metadata']],
    ['spec', struct([['scaleTargetRef', spec['scaleTargetRef']], ['minReplicas', spec['minReplicas']], ['maxReplicas', spec['maxReplicas']], ...specOwn])],
    [
      'status',
      struct([
        ['observedGeneration', status['observedGeneration']],
        ['lastScaleTime', status['lastScaleTime']],
        ['currentReplicas', status['currentReplicas']],
        ['desiredReplicas', status['desiredReplicas']],
        ...statusOwn,
      ]),
    ],
  ]);
}

/** The five metric sources, in Go struct order (`type` comes first). */
const SOURCES = ['object', 'pods', 'resource', 'containerResource', 'external'] as const;
type Source = (typeof SOURCES)[number];

/** A MetricSpec/MetricStatus with each present source converted by `build`. */
function bySource(m: Value, build: Record<Source, (s: ValueMap) => Value>): Value {
  return struct([
    ['type', field(m, 'type') ?? ''],
    ...SOURCES.map((n): [string, Value | undefined] => [n, isMap(field(m, n)) ? build[n](map(field(m, n))) : undefined]),
  ]);
}

/** v1's flattened metric identity: `metricName` and a selector member. */
function v1Metric(metric: ValueMap, selectorKey: 'selector' | 'metricSelector'): [string, Value | undefined][] {
  return [
    ['metricName', metric['name'] ?? ''],
    [selectorKey, selector(metric['selector'])],
  ];
}

/** v2's metric identity from v1's `metricName` and selector member. */
function v2Metric(s: ValueMap, selectorKey: 'selector' | 'metricSelector'): Value {
  return struct([
    ['name', field(s, 'metricName') ?? ''],
    ['selector', selector(field(s, selectorKey))],
  ]);
}

// ---- internal (v2 shape) → v1 ------------------------------------------------------------------

function internalToV1(o: ValueMap): Obj {
  const spec = map(o['spec']);
  const status = map(o['status']);
  const metrics = list(spec['metrics']);
  const cpu = metrics.find(isCpuUtilization);
  let currentCpu: Value | undefined;
  for (const m of list(status['currentMetrics'])) {
    const r = map(field(m, 'resource'));
    const u = field(map(r['current']), 'averageUtilization');
    if (field(m, 'type') === 'Resource' && r['name'] === 'cpu' && isNum(u)) currentCpu = u; // the last one wins
  }
  const out = hpaObject(
    o,
    HPA_V1,
    [['targetCPUUtilizationPercentage', cpu === undefined ? undefined : field(map(map(field(cpu, 'resource'))['target']), 'averageUtilization')]],
    [['currentCPUUtilizationPercentage', currentCpu]],
  );
  const extra: Obj = {};
  const others = metrics.filter((m) => !isCpuUtilization(m)).map((m) => metricToV1(m, SPEC_WORDS));
  if (others.length > 0) extra[HPA_ROUND_TRIP_ANNOTATIONS.metrics] = goMarshal(others);
  const current = list(status['currentMetrics']).map((m) => metricToV1(m, STATUS_WORDS));
  if (current.length > 0) extra[HPA_ROUND_TRIP_ANNOTATIONS.currentMetrics] = goMarshal(current);
  if (isMap(spec['behavior'])) extra[HPA_ROUND_TRIP_ANNOTATIONS.behavior] = goMarshal(behaviorToInternalJson(spec['behavior']));
  const conditions = list(status['conditions']).map(conditionToV1);
  if (conditions.length > 0) extra[HPA_ROUND_TRIP_ANNOTATIONS.conditions] = goMarshal(conditions);
  return withAnnotations(out, extra);
}

/** How v1 names a spec's targets or a status's current values, and which are non-pointer quantities. */
interface V1Words {
  readonly from: 'target' | 'current';
  readonly prefix: 'target' | 'current';
  /** Resource `…AverageValue` and External `…Value` are plain Quantities (zero `0`) in statuses. */
  readonly plainValues: boolean;
}

const SPEC_WORDS: V1Words = { from: 'target', prefix: 'target', plainValues: false };
const STATUS_WORDS: V1Words = { from: 'current', prefix: 'current', plainValues: true };

/** A v2 MetricSpec (SPEC_WORDS) or MetricStatus (STATUS_WORDS) in the v1 alpha shape. */
function metricToV1(m: Value, w: V1Words): Value {
  const v = (s: ValueMap) => map(s[w.from]);
  const id = (s: ValueMap) => map(s['metric']);
  const plain = (q: Value | undefined) => (w.plainValues ? quantityOrZero(q) : quantity(q));
  const resource = (s: ValueMap): [string, Value | undefined][] => [
    ['name', s['name'] ?? ''],
    [`${w.prefix}AverageUtilization`, v(s)['averageUtilization'] ?? undefined],
    [`${w.prefix}AverageValue`, plain(v(s)['averageValue'])],
  ];
  return bySource(m, {
    object: (s) => {
      const [name, sel] = v1Metric(id(s), 'selector');
      return struct([['target', objectRef(s['describedObject'])], name, [`${w.prefix}Value`, quantityOrZero(v(s)['value'])], sel, ['averageValue', quantity(v(s)['averageValue'])]]);
    },
    pods: (s) => {
      const [name, sel] = v1Metric(id(s), 'selector');
      return struct([name, [`${w.prefix}AverageValue`, quantityOrZero(v(s)['averageValue'])], sel]);
    },
    resource: (s) => struct(resource(s)),
    containerResource: (s) => struct([...resource(s), ['container', s['container'] ?? '']]),
    external: (s) =>
      struct([...v1Metric(id(s), 'metricSelector'), [`${w.prefix}Value`, plain(v(s)['value'])], [`${w.prefix}AverageValue`, quantity(v(s)['averageValue'])]]),
  });
}

function objectRef(v: Value | undefined): Value {
  const r = map(v);
  return struct([
    ['kind', r['kind'] ?? ''],
    ['name', r['name'] ?? ''],
    ['apiVersion', r['apiVersion'] === '' ? undefined : r['apiVersion']],
  ]);
}

function conditionToV1(c: Value): Value {
  const m = map(c);
  return struct([
    ['type', m['type'] ?? ''],
    ['status', m['status'] ?? ''],
    // metav1.Time is a struct: `omitempty` never drops it, the zero time is `null`.
    ['lastTransitionTime', m['lastTransitionTime'] ?? null],
    ['reason', m['reason'] || undefined],
    ['message', m['message'] || undefined],
  ]);
}

/** The internal HorizontalPodAutoscalerBehavior as `json.Marshal` writes it: Go field names, nil as null. */
function behaviorToInternalJson(b: ValueMap): Value {
  const rules = (r: Value | undefined): Value => {
    if (!isMap(r)) return null;
    const policies = r['policies'];
    return {
      StabilizationWindowSeconds: r['stabilizationWindowSeconds'] ?? null,
      SelectPolicy: r['selectPolicy'] ?? null,
      Policies: isList(policies) ? policies.map((p) => ({ Type: map(p)['type'] ?? '', Value: map(p)['value'] ?? 0, PeriodSeconds: map(p)['periodSeconds'] ?? 0 })) : null,
      Tolerance: quantity(r['tolerance']) ?? null,
    };
  };
  return { ScaleUp: rules(b['scaleUp']), ScaleDown: rules(b['scaleDown']) };
}

// ---- v1 → internal (v2 shape) ------------------------------------------------------------------

function cpuMetric(utilization: Value): Obj {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } };
}

function v1ToInternal(o: ValueMap): Obj {
  const spec = map(o['spec']);
  const status = map(o['status']);
  const ann = annotations(o);
  let metrics: Value[] = isNum(spec['targetCPUUtilizationPercentage']) ? [cpuMetric(spec['targetCPUUtilizationPercentage'])] : [];
  const others = parseJson(ann[HPA_ROUND_TRIP_ANNOTATIONS.metrics]);
  if (isList(others)) metrics = [...others.map(metricSpecFromV1), ...metrics];
  let behavior: Value | undefined;
  const b = parseJson(ann[HPA_ROUND_TRIP_ANNOTATIONS.behavior]);
  if (isMap(b)) {
    const up = rulesFromInternalJson(field(b, 'ScaleUp'));
    const down = rulesFromInternalJson(field(b, 'ScaleDown'));
    if (up !== undefined || down !== undefined) behavior = struct([['scaleUp', up], ['scaleDown', down]]);
  }
  let currentMetrics: Value[] | undefined = isNum(status['currentCPUUtilizationPercentage'])
    ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status['currentCPUUtilizationPercentage'] } } }]
    : undefined;
  const cm = parseJson(ann[HPA_ROUND_TRIP_ANNOTATIONS.currentMetrics]);
  if (isList(cm)) currentMetrics = cm.map(metricStatusFromV1);
  // autoscaling/v1's implicit default, applied explicitly on the way in.
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  let conditions: Value[] | undefined;
  const cs = parseJson(ann[HPA_ROUND_TRIP_ANNOTATIONS.conditions]);
  if (isList(cs)) conditions = cs.map(conditionFromV1);
  const out = hpaObject(
    o,
    HPA_V2,
    [
      ['metrics', metrics],
      ['behavior', behavior],
    ],
    [
      ['currentMetrics', currentMetrics],
      ['conditions', conditions],
    ],
  );
  return withoutRoundTrip(out) as Obj;
}

function metricSpecFromV1(m: Value): Value {
  const target = (s: ValueMap) => {
    const u = field(s, 'targetAverageUtilization');
    return struct([
      ['type', isNum(u) ? 'Utilization' : 'AverageValue'],
      ['averageValue', quantity(field(s, 'targetAverageValue'))],
      ['averageUtilization', isNum(u) ? u : undefined],
    ]);
  };
  return bySource(m, {
    object: (s) =>
      struct([
        ['describedObject', objectRef(field(s, 'target'))],
        [
          'target',
          struct([
            ['type', field(s, 'averageValue') == null ? 'Value' : 'AverageValue'],
            ['value', quantityOrZero(field(s, 'targetValue'))],
            ['averageValue', quantity(field(s, 'averageValue'))],
          ]),
        ],
        ['metric', v2Metric(s, 'selector')],
      ]),
    pods: (s) => struct([['metric', v2Metric(s, 'selector')], ['target', { type: 'AverageValue', averageValue: quantityOrZero(field(s, 'targetAverageValue')) }]]),
    resource: (s) => struct([['name', field(s, 'name') ?? ''], ['target', target(s)]]),
    containerResource: (s) => struct([['name', field(s, 'name') ?? ''], ['target', target(s)], ['container', field(s, 'container') ?? '']]),
    external: (s) =>
      struct([
        ['metric', v2Metric(s, 'metricSelector')],
        [
          'target',
          struct([
            ['type', field(s, 'targetValue') == null ? 'AverageValue' : 'Value'],
            ['value', quantity(field(s, 'targetValue'))],
            ['averageValue', quantity(field(s, 'targetAverageValue'))],
          ]),
        ],
      ]),
  });
}

function metricStatusFromV1(m: Value): Value {
  const current = (s: ValueMap) =>
    struct([
      ['averageValue', quantityOrZero(field(s, 'currentAverageValue'))],
      ['averageUtilization', isNum(field(s, 'currentAverageUtilization')) ? field(s, 'currentAverageUtilization') : undefined],
    ]);
  return bySource(m, {
    object: (s) =>
      struct([
        ['metric', v2Metric(s, 'selector')],
        ['current', struct([['value', quantityOrZero(field(s, 'currentValue'))], ['averageValue', quantity(field(s, 'averageValue'))]])],
        ['describedObject', objectRef(field(s, 'target'))],
      ]),
    pods: (s) => struct([['metric', v2Metric(s, 'selector')], ['current', { averageValue: quantityOrZero(field(s, 'currentAverageValue')) }]]),
    resource: (s) => struct([['name', field(s, 'name') ?? ''], ['current', current(s)]]),
    containerResource: (s) => struct([['name', field(s, 'name') ?? ''], ['current', current(s)], ['container', field(s, 'container') ?? '']]),
    external: (s) =>
      struct([
        ['metric', v2Metric(s, 'metricSelector')],
        ['current', struct([['value', quantityOrZero(field(s, 'currentValue'))], ['averageValue', quantity(field(s, 'currentAverageValue'))]])],
      ]),
  });
}

function conditionFromV1(c: Value): Value {
  return struct([
    ['type', field(c, 'type') ?? ''],
    ['status', field(c, 'status') ?? ''],
    ['lastTransitionTime', field(c, 'lastTransitionTime') ?? undefined],
    ['reason', field(c, 'reason') ?? undefined],
    ['message', field(c, 'message') ?? undefined],
  ]);
}

/** HPAScalingRules from the internal type's JSON (Go field names, matched case-insensitively). */
function rulesFromInternalJson(r: Value | undefined): Value | undefined {
  if (!isMap(r)) return undefined;
  const policies = field(r, 'Policies');
  return struct([
    ['stabilizationWindowSeconds', field(r, 'StabilizationWindowSeconds') ?? undefined],
    ['selectPolicy', field(r, 'SelectPolicy') ?? undefined],
    [
      'policies',
      isList(policies)
        ? policies.map((p) => struct([['type', field(p, 'Type') ?? ''], ['value', field(p, 'Value') ?? 0], ['periodSeconds', field(p, 'PeriodSeconds') ?? 0]]))
        : undefined,
    ],
    ['tolerance', quantity(field(r, 'Tolerance'))],
  ]);
}
