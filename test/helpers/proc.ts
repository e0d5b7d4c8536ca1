// What Linux's /proc says of a process's CPU time.
import { readFileSync } from 'node:fs';

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
