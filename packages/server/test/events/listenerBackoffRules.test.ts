import { describe, expect, it } from 'vitest';
import { afterAttempt, answeringListener, type AttemptForBackoff, type ListenerState } from '../../src/events/delivery/listenerBackoff.js';
import type { Verdict } from '../../src/events/delivery/verdict.js';

const middle = () => 0.5;
const serverError: Verdict = { outcome: 'retry', reason: 'http_error', error: 'the listener answered HTTP 500' };
const refused: Verdict = { outcome: 'retry', reason: 'connection_failed', error: 'ECONNREFUSED' };
const badRequest: Verdict = { outcome: 'failed', reason: 'http_error', error: 'the listener answered HTTP 400' };
const delivered: Verdict = { outcome: 'delivered' };

const attempt = (verdict: Verdict, at: number, extra: Partial<AttemptForBackoff> = {}): AttemptForBackoff => ({ verdict, at, probe: false, unreachable: false, ...extra });
const backingOff = (retryAt: number, step: number): ListenerState => ({ retryAt, step, unreachable: false });

describe('a listener’s backoff', () => {
  it('starts at the first failure: the event is held and the listener is tried again on the ladder’s first rung', () => {
    const step = afterAttempt(answeringListener, attempt(refused, 1_000, { unreachable: true }), middle);
    expect(step).toEqual({ state: { retryAt: 11_000, step: 1, unreachable: true }, fate: 'held', released: false, scheduled: true });
  });

  it('takes the next rung only when a probe fails, not when events sent meanwhile fail', () => {
    const state = backingOff(11_000, 1);
    const meanwhile = afterAttempt(state, attempt(serverError, 5_000), middle);
    expect(meanwhile).toEqual({ state, fate: 'held', released: false, scheduled: false });
    const probe = afterAttempt(state, attempt(serverError, 11_500, { probe: true }), middle);
    expect(probe.state).toEqual({ retryAt: 71_500, step: 2, unreachable: false });
    expect(probe.fate).toBe('held');
  });

  it('waits what Retry-After asks, from a probe or from an event sent meanwhile', () => {
    const limited: Verdict = { outcome: 'retry', reason: 'rate_limited', error: 'HTTP 429', retryAfterMs: 120_000 };
    expect(afterAttempt(answeringListener, attempt(limited, 0), middle).state).toEqual({ retryAt: 120_000, step: 1, unreachable: false });
    const meanwhile = afterAttempt(backingOff(10_000, 1), attempt(limited, 5_000), middle);
    expect(meanwhile).toMatchObject({ state: { retryAt: 125_000, step: 1 }, scheduled: true });
  });

  it('ends at any 2xx, releasing what waits; a 2xx from an answering listener releases nothing', () => {
    expect(afterAttempt(backingOff(11_000, 3), attempt(delivered, 2_000), middle)).toEqual({ state: answeringListener, fate: 'delivered', released: true, scheduled: false });
    expect(afterAttempt(answeringListener, attempt(delivered, 2_000), middle)).toEqual({ state: answeringListener, fate: 'delivered', released: false, scheduled: false });
  });

  it('lets the next waiting event probe at once when a probe is refused for good', () => {
    const step = afterAttempt(backingOff(11_000, 2), attempt(badRequest, 12_000, { probe: true }), middle);
    expect(step).toEqual({ state: backingOff(12_000, 2), fate: 'failed', released: false, scheduled: true });
    expect(afterAttempt(backingOff(11_000, 2), attempt(badRequest, 5_000), middle)).toEqual({ state: backingOff(11_000, 2), fate: 'failed', released: false, scheduled: false });
  });
});
