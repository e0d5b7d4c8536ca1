// Lookups shared by the resource routes, each answering the endpoint's documented 404 shape.
import type { EmuCore } from '../emu.js';
import type { EmuRequest, EmuResponse } from '../types.js';
import type { RunRecord, SquidRecord } from '../model/records.js';
import { errB, isRecord, type Rec } from '../util.js';
import * as store from '../model/store.js';

export type { Rec };
/** The most workers a squid (or a chain's target) may run at once (the API's 400 above it). */
export const MAX_CONCURRENCY = 20;
type Lookup<T> = { rec: T; res?: undefined } | { rec?: undefined; res: EmuResponse };

export function bodyObject(req: EmuRequest): Rec {
  return isRecord(req.body) ? req.body : {};
}

export function findSquid(emu: EmuCore, id: unknown, param = 'squid'): Lookup<SquidRecord> {
  if (typeof id !== 'string' || id === '') return { res: errB(400, `${param} is required.`, param) };
  const rec = store.record(emu, 'squids', id);
  return rec ? { rec } : { res: errB(404, 'Squid not found.', param) };
}

export function findRun(emu: EmuCore, id: unknown, param = 'run_hash'): Lookup<RunRecord> {
  if (typeof id !== 'string' || id === '') return { res: errB(400, `${param} is required.`, param) };
  const rec = store.record(emu, 'runs', id);
  return rec ? { rec } : { res: errB(404, 'Run not found', param) };
}
