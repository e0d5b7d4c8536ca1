// Schedules (changelog: POST /v1/squids/{id} takes `cron_expression`, 5 fields, and `timezone`, an IANA name):
// parsing, the next run time in the zone and the words `sq squids get/list` print.
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, describeCron, isTimeZone, nextRun, parseCron } from '../../src/api/cron.js';

const at = (iso: string): number => Date.parse(iso);

describe('cron schedules (changelog: update-squid cron_expression + timezone)', () => {
  it('refuses anything but 5 valid fields, naming the field', () => {
    expect(() => parseCron('0 9 * *')).toThrow(/has 4 fields; a schedule needs 5/);
    expect(() => parseCron('0 9 * * * *')).toThrow(/has 6 fields/);
    expect(() => parseCron('61 9 * * *')).toThrow(/minute field "61": 61 is outside 0-59/);
    expect(() => parseCron('0 x * * *')).toThrow(/hour field/);
    expect(() => parseCron('0 9 * * 5-1')).toThrow(/runs backwards/);
    expect(parseCron('*/15 9-17 * * mon-fri').minutes).toEqual([0, 15, 30, 45]);
    expect(parseCron('0 0 * * 7').weekdays).toEqual([0]);
  });

  it('checks zones against the IANA list (aliases included)', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Asia/Calcutta')).toBe(true);
    expect(isTimeZone('Europe/Pariss')).toBe(false);
    expect(isTimeZone('CET+1')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it.each([
    ['Europe/Paris', 'Europe/Paris'],
    ['europe/paris', 'Europe/Paris'],
    ['EUROPE/PARIS', 'Europe/Paris'],
    ['utc', 'UTC'],
    ['UTC', 'UTC'],
    ['etc/gmt+5', 'Etc/GMT+5'],
    ['Asia/Calcutta', 'Asia/Calcutta'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['US/Pacific', 'US/Pacific'],
    ['us/pacific', 'America/Los_Angeles'],
    ['Europe/Pariss', null],
    ['CET+1', null],
    ['+01:00', null],
    [' Europe/Paris', null],
    ['', null],
  ])('the zone %j is sent as %j', (typed, sent) => {
    expect(canonicalTimeZone(typed)).toBe(sent);
  });

  it('finds the next run in the zone, across DST', () => {
    const mondays = parseCron('0 9 * * 1');
    // Friday 2026-03-27 12:00 UTC → Monday 2026-03-30 09:00 Paris (summer time, UTC+2) = 07:00 UTC.
    expect(new Date(nextRun(mondays, 'Europe/Paris', at('2026-03-27T12:00:00Z'))!).toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );
    // In winter, UTC+1.
    expect(new Date(nextRun(mondays, 'Europe/Paris', at('2026-11-25T12:00:00Z'))!).toISOString()).toBe(
      '2026-11-30T08:00:00.000Z',
    );
    // Strictly after: at the very minute it fires, the next one is a week later.
    expect(new Date(nextRun(mondays, 'UTC', at('2026-11-30T09:00:00Z'))!).toISOString()).toBe(
      '2026-12-07T09:00:00.000Z',
    );
    expect(new Date(nextRun(parseCron('*/15 * * * *'), 'UTC', at('2026-11-30T09:07:00Z'))!).toISOString()).toBe(
      '2026-11-30T09:15:00.000Z',
    );
    // Day-of-month and day-of-week both set: either matches (the 1st, or a Friday).
    expect(new Date(nextRun(parseCron('0 0 1 * 5'), 'UTC', at('2026-11-25T00:00:00Z'))!).toISOString()).toBe(
      '2026-11-27T00:00:00.000Z',
    );
    expect(nextRun(parseCron('0 0 31 2 *'), 'UTC', at('2026-11-25T00:00:00Z'))).toBeNull();
  });

  it('says the schedule in words', () => {
    expect(describeCron(parseCron('0 9 * * 1'), 'Europe/Paris')).toBe('Mondays at 09:00 Europe/Paris');
    expect(describeCron(parseCron('0 10 * * *'), 'UTC')).toBe('Every day at 10:00 UTC');
    expect(describeCron(parseCron('30 8 * * 1-5'), 'UTC')).toBe('Weekdays at 08:30 UTC');
    expect(describeCron(parseCron('0 9,18 * * 1,3'), 'UTC')).toBe('Mondays and Wednesdays at 09:00 and 18:00 UTC');
    expect(describeCron(parseCron('15 * * * *'), 'UTC')).toBe('Every hour at :15 UTC');
    expect(describeCron(parseCron('0 6 1 * *'), 'UTC')).toBe('The 1st of every month at 06:00 UTC');
    expect(describeCron(parseCron('*/5 * * * *'), 'UTC')).toBe('cron "*/5 * * * *" UTC');
  });
});
