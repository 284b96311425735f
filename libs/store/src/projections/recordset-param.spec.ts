import { recordsetParam } from './recordset-param.js';

describe('recordsetParam: rows for json_to_recordset', () => {
  const rows = [
    { object_id: '1', state: { metadata: { annotations: { owner: 'platform' } } } },
    { object_id: '2', state: { metadata: { annotations: { owner: 'a\u0000b' } } } },
    { object_id: '3', state: null },
  ];

  it('is the rows\' JSON where no string holds an escape text cannot decode', () => {
    const plain = [rows[0]!, rows[2]!];
    expect(recordsetParam(plain, ['state'])).toBe(JSON.stringify(plain));
  });

  it('sends a document holding U+0000 or an unpaired surrogate as its JSON text, and leaves the other rows as they are', () => {
    const withSurrogate = { object_id: '4', state: { v: 'x\ud800' } };
    const sent = JSON.parse(recordsetParam([...rows, withSurrogate], ['state']));
    expect(sent[0]).toEqual(rows[0]);
    expect(sent[1].state).toBe('{"metadata":{"annotations":{"owner":"a\\u0000b"}}}');
    expect(JSON.parse(sent[1].state)).toEqual(rows[1]!.state);
    expect(sent[2]).toEqual(rows[2]);
    expect(JSON.parse(sent[3].state)).toEqual(withSurrogate.state);
  });

  it('leaves columns not named as documents as they are', () => {
    expect(recordsetParam(rows)).toBe(JSON.stringify(rows));
  });
});
