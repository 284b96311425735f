/** The API resource an object was listed or watched through. */
export interface ObservedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** How an observation was made: a watch event, a relist, or reconstructed after a watch gap (410 Gone). */
export type ObservationSource = 'watch' | 'relist' | 'gap-fill';

/** One managedFields entry as the apiserver returns it. */
export interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly apiVersion?: string;
  readonly time?: string;
  readonly fieldsType?: string;
  readonly fieldsV1?: unknown;
  readonly subresource?: string;
}

/** A Kubernetes object as seen on the wire (only the metadata the audit needs is typed). */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: {
    readonly uid: string;
    readonly name: string;
    readonly namespace?: string;
    readonly resourceVersion: string;
    readonly managedFields?: readonly ManagedFieldsEntry[];
    readonly annotations?: Readonly<Record<string, string>>;
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

/** What the watcher saw of one object at one resourceVersion. */
export interface Observation {
  readonly cluster: string;
  readonly resource: ObservedResource;
  readonly type: WatchEventType;
  readonly source: ObservationSource;
  /** RFC 3339 time the watcher received it. */
  readonly observedAt: string;
  readonly object: KubeObject;
}
