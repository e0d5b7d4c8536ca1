// The emulator's own cron reading (src/emulator/model/cron.ts), apart from the client's (src/api/cron.ts): the same
// documented dialect (api-changelog: 5 fields, IANA zone), checked on its own cases and then against the client's
// parser on a spread of expressions and zones, so a misreading in either one fails here.
import { describe, expect, it } from 'vitest';
import { knownZone, nextFiring, readCron, type CronSpec } from '../../src/emulator/model/cron.js';
import { nextRun, parseCron } from '../../src/api/cron.js';

const at = (iso: string) => Date.parse(iso);
const spec = (text: string): CronSpec => {
  const s = readCron(text);
  if ('error' in s) throw new Error(s.error);
  return s;
};
const next = (text: string, zone: string, from: string) => {
  const t = nextFiring(spec(text), zone, at(from));
  return t === null ? null : new Date(t).toISOString();
};

describe('the emulator reads cron expressions itself', () => {
  it.each([
    ['0 9 * *', /5 fields/],
    ['0 9 * * * *', /5 fields/],
    ['61 9 * * *', /minute "61": 61 is not within 0-59/],
    ['0 x * * *', /hour "x"/],
    ['0 9 * * 5-1', /comes after/],
    ['*/0 * * * *', /step of 0/],
    ['1/2/3 * * * *', /not valid/],
  ])('%j is refused: %s', (text, why) => {
    const r = readCron(text);
    expect('error' in r && r.error).toMatch(why);
  });

  it('names, ranges, steps and Sunday as 7', () => {
    expect([...spec('*/15 9-17 * * mon-fri').minute]).toEqual([0, 15, 30, 45]);
    expect([...spec('0 0 * * 7').dow]).toEqual([0]);
    expect(spec('  0   9 * *   1 ').source).toBe('0 9 * * 1');
  });

  it('next firing in the zone, across daylight saving, strictly after', () => {
    expect(next('0 9 * * 1', 'Europe/Paris', '2026-03-27T12:00:00Z')).toBe('2026-03-30T07:00:00.000Z');
    expect(next('0 9 * * 1', 'Europe/Paris', '2026-11-25T12:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
    expect(next('0 9 * * 1', 'UTC', '2026-11-30T09:00:00Z')).toBe('2026-12-07T09:00:00.000Z');
    expect(next('0 0 1 * 5', 'UTC', '2026-11-25T00:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(next('0 0 29 2 *', 'UTC', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('0 0 31 2 *', 'UTC', '2026-11-25T00:00:00Z')).toBeNull();
  });

  it('zones: IANA names as written', () => {
    expect(knownZone('Europe/Paris')).toBe(true);
    expect(knownZone('UTC')).toBe(true);
    expect(knownZone('Asia/Calcutta')).toBe(true);
    expect(knownZone('europe/paris')).toBe(false);
    expect(knownZone('Europe/Pariss')).toBe(false);
    expect(knownZone(' Europe/Paris')).toBe(false);
    expect(knownZone('')).toBe(false);
  });
});

describe('the emulator and the client agree on when a schedule fires', () => {
  const EXPRESSIONS = ['0 9 * * 1', '*/7 * * * *', '30 3 * * *', '0 0 1 * 5', '15 8-18/3 * * mon-fri', '0 12 15 jan,jul *', '5 4 * * 0', '0 22 * * 7'];
  const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];
  // Days before daylight-saving changes (the walk crosses them) but not inside the hour a change skips or repeats:
  // there the two readings differ, and the docs do not say which the service has (see the test below).
  const FROM = ['2026-03-07T06:59:00Z', '2026-03-27T00:30:00Z', '2026-04-03T15:00:00Z', '2026-10-23T00:10:00Z', '2026-10-30T05:00:00Z'];
  it.each(EXPRESSIONS)('%s: the next three firings in each zone', (text) => {
    for (const zone of ZONES) {
      for (const from of FROM) {
        let mine: number | null = at(from);
        let theirs: number | null = at(from);
        for (let i = 0; i < 3 && mine !== null && theirs !== null; i++) {
          mine = nextFiring(spec(text), zone, mine);
          theirs = nextRun(parseCron(text), zone, theirs);
          expect(mine, `${text} ${zone} after ${from}`).toBe(theirs);
        }
      }
    }
  });
});

describe('the hours a daylight-saving change skips or repeats (not documented; docs/emulator.md)', () => {
  it('the emulator fires at every instant whose wall clock matches: none in a skipped hour, both passes of a repeated one', () => {
    // Paris, 29 March 2026: 02:00-02:59 does not exist; a 02:30 schedule next fires on the 30th.
    expect(next('30 2 * * *', 'Europe/Paris', '2026-03-29T00:00:00Z')).toBe('2026-03-30T00:30:00.000Z');
    // Paris, 25 October 2026: 02:00-02:59 comes twice (CEST, then CET); */7 fires in both.
    expect(next('*/7 * * * *', 'Europe/Paris', '2026-10-25T00:10:00Z')).toBe('2026-10-25T00:14:00.000Z');
    expect(next('*/7 * * * *', 'Europe/Paris', '2026-10-25T00:56:00Z')).toBe('2026-10-25T01:00:00.000Z');
  });
});
