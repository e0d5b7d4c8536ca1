// Small shared helpers: deterministic ids, the service's several timestamp formats, error bodies.
import { createHash } from 'node:crypto';
import type { EmuResponse } from './types.js';

/** 32-hex id derived from a counter (or a slug), so the same seed and the same calls always give the same ids. */
export function hashId(n: number | string, kind = 'id'): string {
  return createHash('md5').update(`sq-emulator:${kind}:${n}`).digest('hex');
}

/** Stable 32-bit number from any string (row counts, fake values). */
export function hash32(s: string): number {
  return createHash('md5').update(s).digest().readUInt32BE(0);
}

/** Naive UTC with microseconds, e.g. 2025-03-05T09:27:17.012423 (how most run/squid fields look). */
export function naiveUs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23) + '000';
}

/** Naive UTC without a fraction (run stats). */
export function naiveSec(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** ISO with Z and no fraction (balance reset_time and similar). */
export function isoZ(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

/** UTC "YYYYMMDD_HHMM", the time part of exported file names. */
export function fileStamp(ms: number): string {
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}_${d.slice(11, 13)}${d.slice(14, 16)}`;
}

/** Python timedelta text, "H:MM:SS.ffffff". */
export function timedelta(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const us = (total % 1000) * 1000;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(us).padStart(6, '0')}`;
}

export function json(status: number, body: unknown): EmuResponse {
  return { status, body };
}

/** ErrA: `{detail}` — accounts, sync, user, auth, generic 404. */
export function detail(status: number, message: string): EmuResponse {
  return { status, body: { detail: message } };
}

/** ErrB: `{error:{message,type,param}}` — tasks, runs, results, uploads. */
export function errB(status: 400 | 404, message: string, param: string): EmuResponse {
  return {
    status,
    body: { error: { message, type: status === 404 ? 'not_found_error' : 'validation_error', param } },
  };
}

export { isRecord, type Rec } from '../lib/guards.js';

/** Canonical text of a params object, key order ignored, for duplicate detection. */
export function paramsKey(p: Record<string, unknown>): string {
  const sorted = Object.keys(p)
    .sort()
    .map((k) => [k, p[k]]);
  return JSON.stringify(sorted);
}

/** A float with at most 4 decimals, as the samples show `credit_used` and `duration` (10.4498). */
export function float4(n: unknown): number {
  return Math.round(Number(n ?? 0) * 1e4) / 1e4;
}
