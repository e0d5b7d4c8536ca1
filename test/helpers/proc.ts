// What Linux's /proc says of a process's CPU time, and of the processes still writing under a directory (with a
// fallback where there is no /proc).
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds of `pid` (all its threads) as [user, system, waited-for children's user, their system], or undefined
 * where there is no /proc (not Linux) or no such process.
 */
export function cpuTimes(pid: number | 'self'): [number, number, number, number] | undefined {
  try {
    // The command name (field 2) may hold spaces: the fields after it start after the last ') '.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    // utime, stime, cutime, cstime: fields 14-17, in clock ticks (100 a second on Linux).
    return [11, 12, 13, 14].map((i) => Number(rest[i]) / 100) as [number, number, number, number];
  } catch {
    return undefined;
  }
}

/**
 * Processes that still write under `dir`, such as the detached `sq __complete --refresh` a Tab starts, which outlives
 * the test and writes the completion cache after the file ends. On Linux: those whose environment points into `dir`
 * (SQ_CACHE_DIR, TMPDIR, SQ_CONFIG_DIR, HOME…), read from /proc/PID/environ. Where there is no /proc (macOS, the BSDs):
 * the refreshes still running there, by the lock each holds beside its cache file (`*.refreshing`, removed when it
 * ends), the one writer known to outlive a test. `proc` is for the test of that fallback.
 */
export function writersUnder(dir: string, proc = '/proc'): number {
  let pids: string[];
  try {
    pids = readdirSync(proc).filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return refreshLocksUnder(dir);
  }
  let n = 0;
  for (const pid of pids) {
    try {
      const env = readFileSync(`${proc}/${pid}/environ`, 'latin1');
      if (env.includes(`=${dir}/`) || env.includes(`=${dir}\0`)) n++;
    } catch {
      // gone, or not ours to read
    }
  }
  return n;
}

/** The completion refreshes' locks under `dir` (0 when it cannot be read). */
function refreshLocksUnder(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.refreshing')).length;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds (user + system) of each thread of `pid`, by thread id (the main thread's id is the pid), or undefined
 * where there is no /proc (not Linux) or no such process.
 */
export function threadCpuTimes(pid: number): Map<number, number> | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const times = new Map<number, number>();
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      times.set(Number(tid), (Number(rest[11]) + Number(rest[12])) / 100);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return times;
}
