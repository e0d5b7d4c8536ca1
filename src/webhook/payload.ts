// The webhook notification payload (spec "Webhook notification payload"). Receivers are told to validate what
// they get: the service signs nothing, so the shape is the only check there is.
import { RUN_EVENTS as WEBHOOK_EVENTS, type RunEventName as WebhookEvent } from '../api/events.js';

export { WEBHOOK_EVENTS, type WebhookEvent };

export interface WebhookPayload {
  id: string;
  object: 'run';
  event: WebhookEvent;
  squid: { id: string; name: string };
  timestamp: string;
  [k: string]: unknown;
}

/** UTC, `YYYY/MM/DD HH:MM:SS`, and a real date (2026/02/30 is refused). */
export function isWebhookTimestamp(s: string): boolean {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && se < 60;
}

type Validation = { ok: true; payload: WebhookPayload } | { ok: false; reason: string };

export function validatePayload(body: unknown): Validation {
  const bad = (reason: string): Validation => ({ ok: false, reason });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return bad('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.id !== 'string' || b.id === '') return bad('"id" (the run hash) must be a non-empty string');
  if (b.object !== 'run') return bad(`"object" must be "run" (got ${JSON.stringify(b.object)})`);
  if (!(WEBHOOK_EVENTS as readonly unknown[]).includes(b.event)) {
    return bad(`"event" must be one of ${WEBHOOK_EVENTS.join(', ')} (got ${JSON.stringify(b.event)})`);
  }
  const squid = b.squid;
  if (typeof squid !== 'object' || squid === null || Array.isArray(squid))
    return bad('"squid" must be an object with id and name');
  const s = squid as Record<string, unknown>;
  if (typeof s.id !== 'string' || s.id === '') return bad('"squid.id" must be a non-empty string');
  if (typeof s.name !== 'string') return bad('"squid.name" must be a string');
  if (typeof b.timestamp !== 'string' || !isWebhookTimestamp(b.timestamp)) {
    return bad(`"timestamp" must be a UTC time formatted YYYY/MM/DD HH:MM:SS (got ${JSON.stringify(b.timestamp)})`);
  }
  return { ok: true, payload: b as WebhookPayload };
}
