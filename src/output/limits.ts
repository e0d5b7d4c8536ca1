// The caps on --jq and --template (docs/scripting.md): a runaway expression or template ends with exit 1 and a
// message naming the cap, never with V8 aborting the process or the machine running out of memory.
import { UsageError } from '../errors.js';

export interface FilterLimits {
  /**
   * Bytes one run of the filter may print (per page with --all, for the whole document otherwise), or 4 times the
   * document's JSON when that is more (outputFor).
   */
  maxOutput: number;
  /** Bytes of heap jq may grow to (its WebAssembly memory, and its thread's JavaScript heap). */
  maxMemory: number;
  /** Bytes of JSON --slurp may collect before running the filter once. */
  maxSlurp: number;
}

const MB = 1024 * 1024;
/** [environment variable, default in MB] */
export const LIMIT_ENV = {
  maxOutput: ['SQ_FILTER_MAX_OUTPUT_MB', 64],
  maxMemory: ['SQ_FILTER_MAX_MEMORY_MB', 512],
  maxSlurp: ['SQ_SLURP_MAX_MB', 256],
} as const;

export function filterLimits(env: Record<string, string | undefined>): FilterLimits {
  const one = ([name, dflt]: readonly [string, number], max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return dflt * MB;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max)
      throw new UsageError(`${name} must be a whole number of MB from 1 to ${max} (got "${raw}")`);
    return Number(raw) * MB;
  };
  // jq's WebAssembly memory cannot pass 2 GB whatever is asked.
  return {
    maxOutput: one(LIMIT_ENV.maxOutput, 1_000_000),
    maxMemory: one(LIMIT_ENV.maxMemory, 2047),
    maxSlurp: one(LIMIT_ENV.maxSlurp, 4096),
  };
}

/** The output cap of one run on a document whose JSON is `inputBytes` long. */
export function outputFor(limits: FilterLimits, inputBytes: number): number {
  return Math.max(limits.maxOutput, 4 * inputBytes);
}

/** The exit-1 message for a cap that was reached (`bytes`: the cap that applied, when not the limit itself). */
export function capMessage(flag: string, cap: keyof FilterLimits, limits: FilterLimits, bytes = limits[cap]): string {
  const [name] = LIMIT_ENV[cap];
  const mb = Math.round((bytes / MB) * 10) / 10;
  if (cap === 'maxOutput') return `${flag}: stopped at the output cap of ${mb} MB for one document (${name} raises it)`;
  if (cap === 'maxMemory') return `${flag}: stopped at the memory cap of ${mb} MB (${name} raises it)`;
  return `${flag} --slurp: the list passed the cap of ${mb} MB (${name} raises it; without --slurp the filter runs on each page)`;
}
