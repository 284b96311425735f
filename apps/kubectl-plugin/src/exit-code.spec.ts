import { exitCodeOf } from './exit-code.js';
import { failed, notFound, usageError } from './plugin.error.js';

describe('exitCodeOf', () => {
  it.each([
    [usageError('bad flag'), 2],
    [notFound('no such object'), 3],
    [failed('server down'), 1],
    [new Error('anything else'), 1],
    ['a string', 1],
  ])('%p → %i', (error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });
});
