/**
 * A custom resource kind for schema tests: `example.com/v1` Widget as an apiserver publishes its CRD
 * (OpenAPI v3), `spec.items` a list of `{name, size}` keyed by `name` (or atomic), and a managedFields
 * entry of an applier that owns one item.
 */
export const widgetDocument = (listType: 'map' | 'atomic' = 'map') => ({
  openapi: '3.0.0',
  components: {
    schemas: {
      'com.example.v1.Widget': {
        type: 'object',
        'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          spec: {
            type: 'object',
            properties: {
              items: {
                type: 'array',
                'x-kubernetes-list-type': listType,
                ...(listType === 'map' ? { 'x-kubernetes-list-map-keys': ['name'] } : {}),
                items: { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
              },
            },
          },
        },
      },
    },
  },
});

/** The managedFields entry of `manager` applying the one item named `item`. */
export const widgetItemEntry = (manager: string, item: string) => ({
  manager,
  operation: 'Apply',
  apiVersion: 'example.com/v1',
  time: '2026-11-25T10:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:spec': { 'f:items': { [`k:{"name":"${item}"}`]: { '.': {}, 'f:name': {}, 'f:size': {} } } } },
});
