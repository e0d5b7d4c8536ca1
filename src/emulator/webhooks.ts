// Run events POSTed to the squid's webhook (spec Events rules 1-4), with retries on business time.
import http from 'node:http';
import https from 'node:https';
import type { Emu, RunEvent, WebhookFields } from './types.js';
import { recordDelivery } from './delivery.js';
import { isRecord } from './util.js';
import * as store from './model/store.js';
import type { PendingRetry } from './model/records.js';

const WEBHOOK_TIMEOUT_MS = 30_000;
const WEBHOOK_RETRY_SPACING_MS = 15 * 60_000;
/** Retries after the first attempt when webhook_fields.retry is true. */
const WEBHOOK_MAX_RETRIES = 3;
const OK_STATUSES = new Set([200, 201, 202]);

interface PostOutcome {
  ok: boolean;
  status_code: number | null;
  error: string | null;
}

/** "YYYY/MM/DD HH:MM:SS" in UTC, the payload's timestamp format. */
export function webhookTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '/')} ${iso.slice(11, 19)}`;
}

export function webhookTimeout(emu: Emu): number {
  const t = emu.webhookTimeoutMs;
  return typeof t === 'number' && t > 0 ? t : WEBHOOK_TIMEOUT_MS;
}

/**
 * One real HTTP POST. The receiver must answer (status line) within timeoutMs with 200, 201 or 202; anything
 * else, including a network error, is a failed delivery described in `error`. Never rejects.
 */
export function postJson(url: string, payload: unknown, timeoutMs: number): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const data = Buffer.from(JSON.stringify(payload));
    let req: http.ClientRequest;
    try {
      const target = new URL(url);
      const mod = target.protocol === 'https:' ? https : http;
      req = mod.request(target, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(data.length),
          'User-Agent': 'sq-emulator-webhooks/1',
        },
      });
    } catch (e) {
      resolve({ ok: false, status_code: null, error: `invalid URL: ${(e as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      finish({ ok: false, status_code: null, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      res.resume();
      res.on('error', () => undefined);
      const code = res.statusCode ?? 0;
      const ok = OK_STATUSES.has(code);
      finish({ ok, status_code: code, error: ok ? null : `receiver answered HTTP ${code} (expected 200, 201 or 202)` });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      finish({
        ok: false,
        status_code: null,
        error: `request failed: ${e.code ?? ''} ${e.message}`.replace(/\s+/g, ' ').trim(),
      });
    });
    req.end(data);
  });
}

function activeConfig(squid: Record<string, unknown> | undefined): WebhookFields | null {
  const wf = squid?.webhook_fields;
  if (!isRecord(wf) || wf.is_active !== true || !isRecord(wf.events) || typeof wf.url !== 'string') return null;
  return wf as unknown as WebhookFields;
}

function pendingRetries(emu: Emu): PendingRetry[] {
  return store.section(emu, 'webhookRetries', Array.isArray, () => []);
}

export function registerWebhooks(emu: Emu): () => void {
  let stopped = false;
  const timers = new Set<number>();

  const schedule = (p: PendingRetry): void => {
    const id = emu.clock.schedule(Math.max(0, p.due - emu.clock.now()), async () => {
      timers.delete(id);
      const list = pendingRetries(emu);
      const i = list.findIndex((x) => x.key === p.key);
      if (i < 0) return; // the state was reset meanwhile
      list.splice(i, 1);
      emu.markDirty();
      await attempt(p.cfg, p.payload, p.meta, p.n);
    });
    timers.add(id);
  };

  const attempt = async (
    cfg: { url: string; retry: boolean },
    payload: PendingRetry['payload'],
    meta: { squid: string; run: string; event: RunEvent },
    n: number,
  ): Promise<void> => {
    if (stopped) return;
    const startedAt = emu.clock.now();
    const at = emu.nowIso();
    const out = await postJson(cfg.url, payload, webhookTimeout(emu));
    if (stopped) return;
    recordDelivery(emu, {
      kind: 'webhook',
      ...meta,
      attempt: n,
      at,
      ok: out.ok,
      status_code: out.status_code,
      error: out.error,
      target: cfg.url,
    });
    if (out.ok || !cfg.retry || n > WEBHOOK_MAX_RETRIES) return;
    // Spaced from the start of this attempt, so a slow receiver or a clock moved meanwhile keeps the cadence.
    const p: PendingRetry = {
      key: emu.nextId(),
      due: startedAt + WEBHOOK_RETRY_SPACING_MS,
      cfg,
      payload,
      meta,
      n: n + 1,
    };
    pendingRetries(emu).push(p);
    emu.markDirty();
    schedule(p);
  };

  // Retries that were waiting when the emulator last stopped (--state).
  for (const p of pendingRetries(emu)) schedule(p);

  const onRunEvent = (run: Record<string, unknown>, event: RunEvent): void => {
    const squidId = String(run.squid);
    const squid = store.record(emu, 'squids', squidId);
    const wf = activeConfig(squid);
    if (!wf || wf.events[event] !== true) return;
    const payload = {
      id: String(run.id),
      object: 'run',
      event,
      squid: { id: squidId, name: String(squid?.name ?? '') },
      timestamp: webhookTimestamp(emu.clock.now()),
    };
    // The config is captured now: retries go where the event was meant to go.
    void attempt({ url: wf.url, retry: wf.retry === true }, payload, { squid: squidId, run: String(run.id), event }, 1);
  };

  emu.events.on('run.event', onRunEvent);
  return () => {
    stopped = true;
    emu.events.off('run.event', onRunEvent);
    for (const id of timers) emu.clock.cancel(id);
    timers.clear();
  };
}
