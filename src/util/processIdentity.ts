import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who a process is, precisely enough to tell later whether it still runs: a pid alone is not
 * enough (pids are reused, and a restarted container hands the same low pid to the next
 * process), so the start time goes with it.
 */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** When the process started (ms since the epoch). */
  startedAt: number;
  /** The command line, for messages that name the process. */
  command: string;
}

const SELF_STARTED_AT = Math.round(Date.now() - process.uptime() * 1000);

export function currentProcess(): ProcessIdentity {
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: SELF_STARTED_AT,
    command: process.argv.slice(1).join(' ') || process.argv0,
  };
}

/** How far two readings of one process's start time may differ (clock-tick rounding, uptime). */
const START_TOLERANCE_MS = 2000;

/**
 * Whether the process `p` still runs. Only a process on this host can be checked: for one on
 * another host the answer is `unknown`. A live pid whose start time differs from the recorded
 * one is another process that reused the pid (dead). Where the start time cannot be read
 * (no /proc) a live pid counts as alive.
 */
export function processLiveness(p: Pick<ProcessIdentity, 'pid' | 'host' | 'startedAt'>): 'alive' | 'dead' | 'unknown' {
  if (p.host !== hostname()) return 'unknown';
  if (p.pid === process.pid) return Math.abs(p.startedAt - SELF_STARTED_AT) <= START_TOLERANCE_MS ? 'alive' : 'dead';
  try {
    process.kill(p.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return 'dead';
  }
  const started = linuxStartTime(p.pid);
  if (started === null) return 'alive';
  return Math.abs(started - p.startedAt) <= START_TOLERANCE_MS ? 'alive' : 'dead';
}

/** Start time of a pid from /proc (Linux), or null where it cannot be read. */
function linuxStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime, clock ticks after boot); the command (field 2) may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (!Number.isFinite(ticks) || !btime) return null;
    // USER_HZ is 100 on every Linux Node runs on.
    return Number(btime[1]) * 1000 + (ticks / 100) * 1000;
  } catch {
    return null;
  }
}
