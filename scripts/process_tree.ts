/**
 * The processes below a process (its children, theirs, and so on), for the dev runner, which
 * must stop every service and every browser a service launched, even the ones that a
 * `Deno.exit` left behind or that run in their own process group (puppeteer launches Chromium
 * detached). Linux reads /proc; other systems ask `ps`.
 */

/** A process, identified by its id and its start time (so a reused id is not mistaken for it). */
export interface ProcessRef {
  pid: number;
  /** Start time as the system reports it (clock ticks on Linux, `lstart` text elsewhere). */
  started: string;
}

/** One row of the process table. */
interface ProcessRow extends ProcessRef {
  ppid: number;
}

/** The process table from /proc (Linux); zombies (ended, not yet reaped) are left out. */
async function procTable(): Promise<ProcessRow[]> {
  const rows: ProcessRow[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const row = parseStat(await Deno.readTextFile(`/proc/${entry.name}/stat`));
      if (row) rows.push(row);
    } catch {
      // the process ended while we read the table
    }
  }
  return rows;
}

/**
 * Parses /proc/<pid>/stat: "pid (comm) state ppid … starttime …". The command name may hold
 * spaces and parentheses, so the fields are counted from its last ")".
 */
export function parseStat(stat: string): ProcessRow | null {
  const close = stat.lastIndexOf(")");
  if (close < 0) return null;
  const pid = Number(stat.slice(0, stat.indexOf(" ")));
  const fields = stat.slice(close + 2).split(" "); // fields[0] is field 3 (state)
  if (fields[0] === "Z" || fields[0] === "X") return null; // ended: a zombie holds nothing
  const ppid = Number(fields[1]);
  const started = fields[19]; // field 22: starttime
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !started) return null;
  return { pid, ppid, started };
}

/** The process table from `ps` (macOS, BSD). */
async function psTable(): Promise<ProcessRow[]> {
  const out = await new Deno.Command("ps", {
    args: ["-A", "-o", "pid=,ppid=,stat=,lstart="],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").flatMap((line) => {
    const m = line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.+)$/);
    if (!m || m[3].startsWith("Z")) return [];
    return [{ pid: Number(m[1]), ppid: Number(m[2]), started: m[4] }];
  });
}

/** Every process on the machine, with its parent. */
function processTable(): Promise<ProcessRow[]> {
  return Deno.build.os === "linux" ? procTable() : psTable();
}

/** Every process below `pid` (not `pid` itself), parents before their children. */
export async function descendants(pid: number): Promise<ProcessRef[]> {
  const table = await processTable();
  const children = new Map<number, ProcessRow[]>();
  for (const row of table) {
    const list = children.get(row.ppid) ?? [];
    list.push(row);
    children.set(row.ppid, list);
  }
  const out: ProcessRef[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (out.some((p) => p.pid === child.pid)) continue;
      out.push({ pid: child.pid, started: child.started });
      queue.push(child.pid);
    }
  }
  return out;
}

/** The processes of `refs` that still run (same id, same start time). */
export async function stillRunning(refs: ProcessRef[]): Promise<ProcessRef[]> {
  if (refs.length === 0) return [];
  const table = await processTable();
  const now = new Map(table.map((row) => [row.pid, row.started]));
  return refs.filter((ref) => now.get(ref.pid) === ref.started);
}

/** Sends `signal` to each process of `refs` that still runs; one already gone is skipped. */
export async function signalAll(refs: ProcessRef[], signal: Deno.Signal): Promise<void> {
  for (const ref of await stillRunning(refs)) {
    try {
      Deno.kill(ref.pid, signal);
    } catch {
      // it ended between the check and the signal
    }
  }
}
