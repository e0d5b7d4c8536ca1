// The signed-in user and the credit balance, each checked to be that document. `sq me` is the hot path: these checks
// are records.ts's User and Balance written by hand, so that it never loads zod.
import { isRecord, jsonKind } from '../lib/guards.js';
import type { HttpClient } from './http.js';
import type { Balance, User } from './records.js';

/** records.ts's User: both /me samples carry the email. */
export function userProblem(d: unknown): string | null {
  if (!isRecord(d)) return `not a user: it is ${jsonKind(d)}`;
  const email = (d as Record<string, unknown>)?.email;
  return typeof email === 'string'
    ? null
    : `not a user: "email" ${email === undefined ? 'is missing' : `is ${jsonKind(email)}`}`;
}

/** records.ts's Balance: available and consumed are numbers. */
export function balanceProblem(d: unknown): string | null {
  if (!isRecord(d)) return `not a balance: it is ${jsonKind(d)}`;
  for (const k of ['available', 'consumed']) {
    const v = (d as Record<string, unknown>)?.[k];
    if (typeof v !== 'number') return `not a balance: "${k}" ${v === undefined ? 'is missing' : `is ${jsonKind(v)}`}`;
  }
  return null;
}

export function getMe<T = User>(http: HttpClient): Promise<T> {
  return http.get<T>('/v1/me', { expect: userProblem });
}

export function getBalance<T = Balance>(http: HttpClient): Promise<T> {
  return http.get<T>('/v1/user/balance', { expect: balanceProblem });
}
