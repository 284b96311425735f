import { Metrics } from '../../../libs/common/src/index.js';
import { loadConfig } from '../../../libs/config/src/index.js';
import { TooManyStreamsError } from './api.error.js';
import { StreamSlots } from './stream-slots.service.js';

describe('StreamSlots', () => {
  const make = () => {
    const metrics = new Metrics({ defaultMetrics: false });
    return { metrics, slots: new StreamSlots(loadConfig({ STREAMS_MAX: '3', STREAMS_MAX_PER_CALLER: '2' }), metrics) };
  };
  const gauge = async (m: Metrics) => (await m.eventStreamsOpen.get()).values[0]?.value;

  it('caps per caller and per process; a released slot is free again (once)', async () => {
    const { slots, metrics } = make();
    const a1 = slots.acquire('a');
    slots.acquire('a');
    expect(() => slots.acquire('a')).toThrow(TooManyStreamsError);
    slots.acquire('b');
    expect(await gauge(metrics)).toBe(3);
    let overProcess: unknown;
    try {
      slots.acquire('c');
    } catch (e) {
      overProcess = e;
    }
    expect(overProcess).toMatchObject({ code: 'too-many-streams', retryAfterSeconds: 10 });
    expect((overProcess as TooManyStreamsError).message).toContain('STREAMS_MAX');
    a1();
    a1();
    expect(slots.size).toBe(2);
    expect(await gauge(metrics)).toBe(2);
    slots.acquire('c');
    expect(() => slots.acquire('a')).toThrow(/STREAMS_MAX\b/);
  });
});
