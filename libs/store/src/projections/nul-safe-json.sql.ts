/**
 * SQL: the `json` value `expr` for Postgres's `->` and `->>`, which decode every string they pass to
 * `text` and fail on an escaped U+0000 (a value, a custom resource's map key or a manager name may
 * hold one: the projection stores them). Where the text holds that escape it is read with U+FFFD in
 * its place (the escape `\ufffd`, which no backslash before it can turn into another escape), else
 * as it is; only filters use it, never an answer's value.
 */
export const nulSafeJsonSql = (expr: string): string =>
  `(CASE WHEN strpos(${expr}::text, '\\u0000') > 0 THEN replace(${expr}::text, '\\u0000', '\\ufffd')::json ELSE ${expr} END)`;
