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
  const EXPRESSIONS = [
    '0 9 * * 1',
    '*/7 * * * *',
    '30 3 * * *',
    '0 0 1 * 5',
    '15 8-18/3 * * mon-fri',
    '0 12 15 jan,jul *',
    '5 4 * * 0',
    '0 22 * * 7',
  ];
  const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];
  const FROM = [
    '2026-03-07T06:59:00Z',
    '2026-03-27T00:30:00Z',
    '2026-04-03T15:00:00Z',
    '2026-10-23T00:10:00Z',
    '2026-10-30T05:00:00Z',
  ];
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

// The docs say nothing of daylight saving; docs/emulator.md states the reading both sides keep: each matching wall-clock
// time fires once, a skipped one as long after the change as it lay into the gap, a repeated one on its first pass.
describe('across a daylight-saving change, the emulator and the client fire at the same instants', () => {
  const both = (text: string, zone: string, from: string, n: number) => {
    const mine: (string | null)[] = [];
    const theirs: (string | null)[] = [];
    let [a, b]: (number | null)[] = [at(from), at(from)];
    for (let i = 0; i < n; i++) {
      a = a === null ? null : nextFiring(spec(text), zone, a);
      b = b === null ? null : nextRun(parseCron(text), zone, b);
      mine.push(a === null ? null : new Date(a).toISOString());
      theirs.push(b === null ? null : new Date(b).toISOString());
    }
    expect(mine, `${text} ${zone} after ${from}`).toEqual(theirs);
    return mine;
  };

  it('Paris, last Sunday of March: 02:30 does not exist and fires at 03:30 summer time, once', () => {
    expect(both('30 2 * * *', 'Europe/Paris', '2026-03-28T12:00:00Z', 3)).toEqual([
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
    expect(both('0,30 1-3 * * *', 'Europe/Paris', '2026-03-29T00:10:00Z', 5)).toEqual([
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-29T23:00:00.000Z',
      '2026-03-29T23:30:00.000Z',
    ]);
  });

  it('Paris, last Sunday of October: 02:30 comes twice and fires on the first pass only', () => {
    expect(both('30 2 * * *', 'Europe/Paris', '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    expect(both('*/20 * * * *', 'Europe/Paris', '2026-10-24T23:50:00Z', 5)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:20:00.000Z',
      '2026-10-25T00:40:00.000Z',
      '2026-10-25T02:00:00.000Z',
      '2026-10-25T02:20:00.000Z',
    ]);
  });

  const CHANGES: [string, string][] = [
    ['Europe/Paris', '2026-03-28T22:00:00Z'],
    ['Europe/Paris', '2026-10-24T22:00:00Z'],
    ['America/New_York', '2026-03-08T04:00:00Z'],
    ['America/New_York', '2026-11-01T03:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T13:00:00Z'],
    ['Australia/Lord_Howe', '2026-10-03T14:00:00Z'],
    ['America/Santiago', '2026-04-04T23:00:00Z'],
    ['America/Santiago', '2026-09-05T23:00:00Z'],
  ];
  const EXPRESSIONS = [
    '30 2 * * *',
    '*/7 * * * *',
    '0 * * * *',
    '15,45 1-3 * * *',
    '0 0 * * *',
    '59 23 * * *',
    '40 2 * * 0',
  ];
  it.each(CHANGES)('%s around %s: the next firings of each expression', (zone, from) => {
    for (const text of EXPRESSIONS) both(text, zone, from, 12);
  });
});
