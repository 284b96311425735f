/**
 * Rows for `json_to_recordset`, as one JSON text (one parameter, one `JSON.stringify`): Postgres
 * parses each row once, where array literals would escape every quote of every document.
 *
 * The recordset functions decode every string of their input to `text`, at any depth, and `text`
 * cannot hold U+0000 (Postgres rejects `\u0000` there, and an unpaired surrogate's escape), which a
 * body's values may hold (an annotation `"a\u0000b"` is valid in Kubernetes). So the `documents`
 * columns of a row whose JSON holds such an escape travel as their JSON text, a string: the
 * statement declares those columns `text` and casts them `::json`, which takes either form (an
 * object's text, or the string's, decoded once) and keeps the escape as written. Rows without one,
 * all of them in practice, are sent as they are: a search for `\u` in the text is the whole
 * cost (about 0.2 % of the `JSON.stringify` before it; a regular expression over the text took 9 %).
 */
export function recordsetParam(rows: readonly Record<string, unknown>[], documents: readonly string[] = []): string {
  const text = JSON.stringify(rows);
  if (documents.length === 0 || !text.includes('\\u') || !UNDECODABLE.test(text)) return text;
  return JSON.stringify(rows.map((row) => {
    let out = row;
    for (const column of documents) {
      const value = row[column];
      if (value === null || value === undefined) continue;
      const json = JSON.stringify(value);
      if (UNDECODABLE.test(json)) out = { ...out, [column]: json };
    }
    return out;
  }));
}

/**
 * An escape Postgres cannot decode to `text`, as `JSON.stringify` writes it (lower-case hex); an
 * escaped backslash before `u0000` matches too, a false alarm that costs only the slower path.
 */
const UNDECODABLE = /\\u0000|\\ud[89a-f]/;
