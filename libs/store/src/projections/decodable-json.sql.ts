/**
 * SQL: the `json` value `expr` for Postgres's `->` and `->>`, which decode every string they pass to
 * `text` and fail on an escaped U+0000 or an escaped lone surrogate (a value, a custom resource's map
 * key or a manager name may hold one: the projection stores them; audit `storableText`). Where the
 * text holds any escape `\u` (one search; some only look like one, after an escaped backslash) it
 * is read with U+FFFD in place of U+0000 and of every surrogate escape, paired or not (the escape
 * `\ufffd`, which no backslash before it can turn into another escape; the service writes pairs
 * unescaped), else as it is; only filters use it, never an answer's value.
 */
export const decodableJsonSql = (expr: string): string =>
  `(CASE WHEN strpos(${expr}::text, '\\u') > 0
     THEN regexp_replace(replace(${expr}::text, '\\u0000', '\\ufffd'), '\\\\u[dD][89a-fA-F][0-9a-fA-F]{2}', '\\\\ufffd', 'g')::json ELSE ${expr} END)`;
