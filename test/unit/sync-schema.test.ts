// The pure parts of `sq results sync`: --to URLs, table names, the columns and DDL from a crawler's attributes, how an
// existing table compares, and how a value becomes a column's.
import { describe, expect, it } from 'vitest';
import { checkTableName, defaultTableName, parseTarget } from '../../src/sync/target.js';
import { columnsOf, planTable } from '../../src/sync/schema.js';
import { convert, SyncDataError } from '../../src/sync/write.js';
import { UsageError } from '../../src/errors.js';

describe('parseTarget', () => {
  it.each([
    ['sqlite:r.db', { kind: 'sqlite', path: 'r.db' }],
    ['sqlite:/abs/r.db', { kind: 'sqlite', path: '/abs/r.db' }],
    ['sqlite:///abs/r.db', { kind: 'sqlite', path: '/abs/r.db' }],
    [
      'postgres://me:pw@db.internal:6543/crm',
      {
        kind: 'postgres',
        host: 'db.internal',
        port: 6543,
        database: 'crm',
        user: 'me',
        password: 'pw',
        shown: 'postgres://me:********@db.internal:6543/crm',
      },
    ],
    [
      'postgresql://me@localhost/crm',
      { kind: 'postgres', host: 'localhost', port: 5432, database: 'crm', user: 'me', password: null },
    ],
    ['postgres://me:p%40ss@h/d', { password: 'p@ss', shown: 'postgres://me:********@h/d' }],
    [
      'postgres://me@h/d?sslmode=require&password=qs-secret',
      { password: 'qs-secret', shown: 'postgres://me@h/d?sslmode=require&password=********' },
    ],
  ])('%s', (url, want) => {
    expect(parseTarget(url)).toMatchObject(want);
  });

  it.each(['mysql://h/d', 'r.db', 'sqlite:', 'http://x'])('refuses %s naming --to', (url) => {
    expect(() => parseTarget(url)).toThrow(UsageError);
    expect(() => parseTarget(url)).toThrow(/^--to/);
  });

  it('never quotes a bad URL back (it may hold a password)', () => {
    expect(() => parseTarget('postgres://me:hunter2@[bad')).toThrow(/^--to: not a valid postgres:\/\/ URL/);
    try {
      parseTarget('postgres://me:hunter2@[bad');
    } catch (e) {
      expect(String(e)).not.toContain('hunter2');
    }
  });
});

describe('table names', () => {
  it.each(['1x', 'a-b', 'a b', '"x"', 'x'.repeat(64), 'sq_sync_runs'])('%s is refused', (n) =>
    expect(() => checkTableName(n)).toThrow(/^--table/),
  );
  it.each([
    ['Paris restaurants', 'paris_restaurants'],
    ['Café — Lyon (2)', 'cafe_lyon_2'],
    ['2024 leads', 'squid_2024_leads'],
    ['!!!', 'squid_abcdef12'],
  ])('%s → %s', (name, want) => expect(defaultTableName(name, 'abcdef1234')).toBe(want));
});

describe('columns and DDL', () => {
  const cols = columnsOf([
    { name: 'name', type: 'string' },
    { name: 'ratings', type: 'integer' },
    { name: 'score', type: 'float' },
    { name: 'open', type: 'boolean' },
    { name: 'hours', type: 'json' },
    { name: 'id', type: 'string' },
  ]);

  it('maps each attribute type, after sq own columns and scraping_time; id stays sq_result_id', () => {
    expect(cols.map((c) => `${c.name}:${c.type}`)).toEqual([
      'sq_result_id:text',
      'sq_run_id:text',
      'sq_squid_id:text',
      'sq_synced_at:timestamp',
      'scraping_time:timestamp',
      'name:text',
      'ratings:integer',
      'score:real',
      'open:boolean',
      'hours:json',
    ]);
  });

  it('creates the table with typed columns per database', () => {
    expect(planTable('postgres', 'p', cols, ['name'], null).ddl).toEqual([
      'CREATE TABLE "p" ("sq_result_id" text NOT NULL, "sq_run_id" text, "sq_squid_id" text, "sq_synced_at" timestamptz, "scraping_time" timestamp, ' +
        '"name" text NOT NULL, "ratings" bigint, "score" double precision, "open" boolean, "hours" jsonb, PRIMARY KEY ("name"))',
    ]);
    expect(planTable('sqlite', 'p', cols, [], null).ddl[0]).toContain(
      '"ratings" INTEGER, "score" REAL, "open" BOOLEAN, "hours" JSON, PRIMARY KEY ("sq_result_id")',
    );
  });

  it('adds the missing columns only, and keeps columns the crawler no longer has', () => {
    const existing = new Map(
      cols.filter((c) => c.name !== 'hours').map((c) => [c.name, c.type === 'real' ? 'double precision' : c.type]),
    );
    existing.set('old_field', 'text');
    expect(planTable('postgres', 'p', cols, [], existing)).toEqual({
      ddl: ['ALTER TABLE "p" ADD COLUMN "hours" jsonb'],
      create: false,
      added: ['hours'],
    });
  });

  it('a column of another type is a usage error naming it', () => {
    const existing = new Map(
      cols.map((c) => [c.name, c.name === 'ratings' ? 'boolean' : c.type === 'real' ? 'REAL' : c.type]),
    );
    expect(() => planTable('sqlite', 'p', cols, [], existing)).toThrow(
      /column "ratings" of table p is boolean, but the crawler's attribute is integer/,
    );
  });
});

describe('convert', () => {
  const col = (type: 'text' | 'integer' | 'real' | 'boolean' | 'timestamp' | 'json') => ({
    name: 'c',
    type,
    field: 'c',
  });
  it.each([
    ['integer', 42, 42],
    ['integer', '42', 42],
    ['integer', '', null],
    ['real', '4.5', 4.5],
    ['boolean', 'true', true],
    ['boolean', 0, false],
    ['json', { a: [1] }, '{"a":[1]}'],
    ['text', { a: 1 }, '{"a":1}'],
    ['text', 7, '7'],
    ['timestamp', '2025-03-05T09:27:17.012423', '2025-03-05T09:27:17.012423'],
    ['integer', null, null],
  ] as const)('%s %j → %j', (type, v, want) => expect(convert(col(type), v, 'r1')).toEqual(want));

  it.each([
    ['integer', 'n/a'],
    ['integer', 1.5],
    ['real', 'abc'],
    ['boolean', 'maybe'],
    ['timestamp', 'soon'],
  ] as const)('%s %j is an error naming the column and the result', (type, v) => {
    expect(() => convert(col(type), v, 'r1')).toThrow(SyncDataError);
    expect(() => convert(col(type), v, 'r1')).toThrow(/^result r1: column "c" is /);
  });
});
