// The signed-in user and the credit balance, each checked to be that document (records.ts: a 200 that is an error
// message is exit 1, never printed at exit 0). `sq me` is the hot path: records.ts is its only import.
import type { HttpClient } from './http.js';
import { checks } from './records.js';

export function getMe<T = Record<string, unknown>>(http: HttpClient): Promise<T> {
  return http.get<T>('/v1/me', { expect: checks.user });
}

export function getBalance<T = Record<string, unknown>>(http: HttpClient): Promise<T> {
  return http.get<T>('/v1/user/balance', { expect: checks.balance });
}
