import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A CPU list for taskset (`0`, `1`), or undefined to leave the process unpinned. */
export type Core = string | undefined;

export interface Started {
  child: ChildProcess;
  pid: number;
  /** performance.now() just before spawn. */
  spawnedAt: number;
}

/** Runs `command args` pinned to `core` (taskset execs it, so the pid is the command's own). */
export function startPinned(
  core: Core,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; logFile: string },
): Started {
  const log = openSync(options.logFile, 'a');
  const [file, argv] = core === undefined ? [command, args] : ['taskset', ['-c', core, command, ...args]];
  const spawnedAt = performance.now();
  const child = spawn(file, argv, {
    env: options.env ?? process.env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  return { child, pid: child.pid, spawnedAt };
}

/** SIGTERM, then SIGKILL to the process group after `graceMs`; resolves once the process exited. */
export async function stop(started: Started, graceMs = 10_000): Promise<void> {
  const { child } = started;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-started.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request on a fresh connection; rejects on connection errors. */
export function fetchOnce(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false });
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.once('error', reject);
    });
    req.end(options.body);
  });
}

/** Polls `url` until it answers `status`; resolves with performance.now() at that answer. */
export async function waitForStatus(
  started: Started,
  url: string,
  headers: Record<string, string>,
  status = 200,
  timeoutMs = 30_000,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`process exited with ${started.child.exitCode}`);
    try {
      const response = await fetchOnce(url, { headers });
      if (response.status === status) return performance.now();
      last = `${response.status} ${response.body.toString('utf8').slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(5);
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})`);
}

function parentOf(pid: string): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  } catch {
    return undefined;
  }
}

/** The pid and all its descendants (workers), read from /proc. */
export function processTree(pid: number): number[] {
  const parents = new Map<string, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent !== undefined) parents.set(parent, [...(parents.get(parent) ?? []), entry]);
  }
  const tree = [String(pid)];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree.map(Number);
}

/** VmRSS in bytes, 0 when the process is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in seconds; 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuSplit(pid);
  return user + system;
}

/**
 * CPU time a process and its children (npm's) have run so far, every thread of each, in milliseconds
 * to the nanosecond (/proc/<pid>/task/<tid>/schedstat); 0 for what is gone.
 */
export function treeCpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const member of processTree(pid)) {
    try {
      for (const task of readdirSync(`/proc/${member}/task`)) {
        nanoseconds += Number(readFileSync(`/proc/${member}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      }
    } catch {
      // gone meanwhile
    }
  }
  return nanoseconds / 1e6;
}

/** CPU time a process has used so far in its own code and in the kernel, in seconds; 0 when it is gone. */
export function cpuSplit(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: 0, system: 0 };
  }
}

export interface ProcessSample {
  peakBytes: number;
  processes: number;
  /** CPU seconds the process tree used while sampled. */
  cpuSeconds: number;
}

/**
 * Samples a process tree every `everyMs` until stopped: the peak of its summed VmRSS, how many
 * processes it had, and the CPU time it used meanwhile (per member, so workers count too).
 */
export function sampleProcess(pid: number, everyMs = 250): { stop(): ProcessSample } {
  let peakBytes = 0;
  let processes = 1;
  const cpuAtStart = new Map<number, number>();
  const cpuLatest = new Map<number, number>();
  const sample = () => {
    const tree = processTree(pid);
    processes = Math.max(processes, tree.length);
    let bytes = 0;
    for (const member of tree) {
      bytes += rssBytes(member);
      const used = cpuSeconds(member);
      if (!cpuAtStart.has(member)) cpuAtStart.set(member, used);
      if (used > 0) cpuLatest.set(member, used);
    }
    peakBytes = Math.max(peakBytes, bytes);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let used = 0;
      for (const [member, latest] of cpuLatest) used += latest - (cpuAtStart.get(member) ?? latest);
      return { peakBytes, processes, cpuSeconds: used };
    },
  };
}
