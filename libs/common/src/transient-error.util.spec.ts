import { isTransientError } from './transient-error.util.js';

describe('isTransientError', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['pg: admin shutdown', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['pg: starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['pg: serialization failure', Object.assign(new Error('could not serialize access'), { code: '40001' })],
    ['pg: deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    ['pg: connection failure class 08', Object.assign(new Error('x'), { code: '08006' })],
    ['pg: read-only after a failover', Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' })],
    ['pg: connection terminated without code', new Error('Connection terminated unexpectedly')],
    ['TypeORM-wrapped', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '57P01' }) })],
    ['a cause chain', new Error('outer', { cause: Object.assign(new Error('inner'), { code: 'ETIMEDOUT' }) })],
    ['AggregateError of refusals', new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all failed')],
  ])('%s is transient', (_, e) => expect(isTransientError(e)).toBe(true));

  it.each([
    ['unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['invalid text', Object.assign(new Error('invalid byte sequence'), { code: '22021' })],
    ['raised by a trigger', Object.assign(new Error('rejected'), { code: 'P0001' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'boom'],
    ['null', null],
  ])('%s is permanent', (_, e) => expect(isTransientError(e)).toBe(false));
});
