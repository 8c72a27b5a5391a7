import { describe, expect, it } from 'vitest';
import { rng } from '../../test/helpers/rng.js';
import {
  CLOCK_SKEW_MS,
  isHeld,
  parseLease,
  recentPushes,
  renderLease,
  type LeaseRecord,
} from './integrate-lease-record.js';

const rec: LeaseRecord = {
  holder: 'ada/m1/0a1b2c3d',
  state: 'held',
  expires: 1_700_000_060_000,
  ttl: 60_000,
  pushes: [1_700_000_000_000, 1_700_000_001_000],
  pending: 2,
};

describe('the integration lease record', () => {
  it('round-trips', () => {
    expect(parseLease(renderLease(rec))).toEqual(rec);
    expect(parseLease(renderLease({ ...rec, pushes: [], state: 'released' }))).toEqual({
      ...rec,
      pushes: [],
      state: 'released',
    });
  });

  it('anything not exactly a record is no lease (hostile text never throws)', () => {
    const text = renderLease(rec);
    const bad = [
      '',
      'garbage',
      text.replace('gitmem integration lease', 'gitmem lease'),
      text.replace('holder: ada/m1/0a1b2c3d', 'holder: ../../x/0'),
      text.replace('holder: ada/m1/0a1b2c3d', 'holder: ada/m1'),
      text.replace('state: held', 'state: mine'),
      text.replace('expires: 1700000060000', 'expires: -5'),
      text.replace('expires: 1700000060000', 'expires: 1e400'),
      text.replace('expires: 1700000060000', 'expires: 99999999999999999'),
      text.replace('ttl: 60000', 'ttl: 0'),
      text.replace('ttl: 60000', 'ttl: 600001'),
      text.replace('pending: 2', 'pending: two'),
      text.replace('pushes: 1700000000000,1700000001000', 'pushes: 1,,2'),
      text.replace('pushes: 1700000000000,1700000001000', `pushes: ${Array(601).fill(1).join(',')}`),
      `${text}holder: b/m/1\n`,
      `${text}extra: 1\n`,
      text.replace('pending: 2\n', ''),
      `${text}${'x'.repeat(20_000)}`,
    ];
    for (const t of bad) expect(parseLease(t), t.slice(0, 80)).toBeUndefined();
    // Seeded noise: random bytes and random edits of a good record never throw.
    const rnd = rng(30);
    for (let i = 0; i < 500; i++) {
      const chars = [...text];
      for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++)
        chars[Math.floor(rnd() * chars.length)] = String.fromCharCode(Math.floor(rnd() * 128));
      expect(() => parseLease(chars.join(''))).not.toThrow();
    }
  });

  it('a lease is held only until it expires, and a record claiming more than its ttl is not believed', () => {
    const now = rec.expires - 1_000;
    expect(isHeld(rec, now)).toBe(true);
    expect(isHeld(rec, rec.expires)).toBe(false);
    expect(isHeld({ ...rec, state: 'released' }, now)).toBe(false);
    expect(isHeld(undefined, now)).toBe(false);
    // A holder whose clock is an hour ahead: its expiry is far beyond its ttl from our clock.
    expect(isHeld({ ...rec, expires: now + 3_600_000 }, now)).toBe(false);
    expect(isHeld({ ...rec, expires: now + rec.ttl + CLOCK_SKEW_MS }, now)).toBe(true);
  });

  it('recent pushes: the last minute of both logs, a time from the future counted as now', () => {
    expect(recentPushes([1_000, 50_000], [2_000, 70_000], 65_000)).toEqual([50_000, 65_000]);
    expect(recentPushes([10_000], [10_000], 20_000)).toEqual([10_000]);
  });
});
