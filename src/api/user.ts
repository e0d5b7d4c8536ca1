// The signed-in user and the credit balance. No imports: `sq me` is the hot path and loads this file.
import type { HttpClient } from './http.js';

export function getMe<T = Record<string, unknown>>(http: HttpClient): Promise<T> {
  return http.get<T>('/v1/me');
}

export function getBalance<T = Record<string, unknown>>(http: HttpClient): Promise<T> {
  return http.get<T>('/v1/user/balance');
}
