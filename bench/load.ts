import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Core } from './processes.ts';
import type { Tool } from './options.ts';

export interface LoadSpec {
  /** Base URL of the server, e.g. http://127.0.0.1:8080 */
  origin: string;
  method: 'GET' | 'POST';
  /** Request path; with `randomIdUpTo`, `{id}` in it is replaced by a random id from 1 to that. */
  path: string;
  randomIdUpTo?: number;
  headers: Record<string, string>;
  /** A file of API keys, one a line: each request bears the next one's Authorization (in rotation). */
  keysFile?: string;
  body?: string;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses outside 2xx/3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
  /** CPU time (user + system) the load generator itself used, in seconds. */
  loadCpuSeconds: number;
}

const MARK = 'BENCH_JSON ';

const luaString = (text: string) => JSON.stringify(text);

/** A wrk script: method, headers, body, random ids, and a `done` that prints the figures as JSON. */
function wrkScript(spec: LoadSpec): string {
  const lines = [`wrk.method = ${luaString(spec.method)}`];
  for (const [name, value] of Object.entries(spec.headers))
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  if (spec.body !== undefined) lines.push(`wrk.body = ${luaString(spec.body)}`);
  // One request function does both: each request bears the next key in rotation and asks for a
  // random id, so a run with both measures both (a second function would replace the first).
  const path =
    spec.randomIdUpTo === undefined
      ? 'nil'
      : (() => {
          const [before, after] = spec.path.split('{id}') as [string, string];
          lines.push('math.randomseed(os.time())');
          return `${luaString(before)} .. math.random(1, ${spec.randomIdUpTo}) .. ${luaString(after)}`;
        })();
  if (spec.keysFile !== undefined) {
    lines.push(
      'local keys, next = {}, 0',
      // Each key's header table holds the script's other headers too: wrk.format sends only the table it is
      // given. Not another Authorization, in any case: wrk would send both, and the server refuses two.
      `for line in io.lines(${luaString(spec.keysFile)}) do`,
      '  local headers = {}',
      '  for name, value in pairs(wrk.headers) do',
      "    if string.lower(name) ~= 'authorization' then headers[name] = value end",
      '  end',
      "  headers['Authorization'] = 'Bearer ' .. line",
      '  keys[#keys + 1] = headers',
      'end',
    );
  }
  if (spec.keysFile !== undefined || spec.randomIdUpTo !== undefined) {
    lines.push(
      'request = function()',
      ...(spec.keysFile === undefined
        ? [`  return wrk.format(nil, ${path})`]
        : ['  next = next % #keys + 1', `  return wrk.format(nil, ${path}, keys[next])`]),
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('${MARK}{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"non2xx":%d,"errors":%d}\\n',`,
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,',
    '    e.connect + e.read + e.write + e.timeout))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/** Runs `command` pinned to `core` to completion; resolves with its standard output. */
export function runPinned(core: Core, command: string, args: string[]): Promise<string> {
  const [file, argv] = core === undefined ? [command, args] : ['taskset', ['-c', core, command, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}: ${err || out}`)),
    );
  });
}

const CPU_MARK = 'LOADGEN_CPU_TICKS ';

/**
 * Runs a load generator like runPinned and also measures its CPU time: a shell runs it, waits for it,
 * and prints its own `cutime + cstime` (fields 16 and 17 of /proc/self/stat: the CPU time of the
 * children it has waited for, in clock ticks of 1/100 s).
 */
async function runMeasured(core: Core, command: string, args: string[]) {
  const script = `"$@"; status=$?; set -- $(cat /proc/$$/stat); echo "${CPU_MARK}$((\${16} + \${17}))"; exit $status`;
  const out = await runPinned(core, 'sh', ['-c', script, 'sh', command, ...args]);
  const line = out.split('\n').find((candidate) => candidate.startsWith(CPU_MARK));
  return { out, cpuSeconds: line === undefined ? Number.NaN : Number(line.slice(CPU_MARK.length)) / 100 };
}

/** The JSON of the result line a load generator or walker printed. */
export function readResult(output: string): Record<string, number> {
  const line = output.split('\n').find((candidate) => candidate.startsWith(MARK));
  if (!line) throw new Error(`the load generator printed no result:\n${output}`);
  return JSON.parse(line.slice(MARK.length)) as Record<string, number>;
}

async function runWrk(spec: LoadSpec, core: Core, workDir: string): Promise<LoadResult> {
  const script = join(workDir, `wrk-${process.hrtime.bigint()}.lua`);
  writeFileSync(script, wrkScript(spec));
  const path = spec.path.replace('{id}', '1');
  // Pinned to one core, one thread; unpinned (the workers scenario), a thread per core, or a single
  // wrk thread descheduled behind busy workers stalls all connections at once.
  const threads = core === undefined ? availableParallelism() : 1;
  const args = [
    `-t${threads}`,
    `-c${spec.connections}`,
    `-d${spec.durationSeconds}s`,
    '--latency',
    '--timeout',
    '10s',
    '-s',
    script,
  ];
  const { out, cpuSeconds } = await runMeasured(core, 'wrk', [...args, `${spec.origin}${path}`]);
  const raw = readResult(out);
  return {
    requests: raw.requests!,
    rps: raw.requests! / (raw.durationUs! / 1e6),
    p50Ms: raw.p50Us! / 1000,
    p99Ms: raw.p99Us! / 1000,
    non2xx: raw.non2xx!,
    errors: raw.errors!,
    loadCpuSeconds: cpuSeconds,
  };
}

async function runAutocannon(spec: LoadSpec, core: Core): Promise<LoadResult> {
  const worker = new URL('./load-autocannon.ts', import.meta.url).pathname;
  const { out, cpuSeconds } = await runMeasured(core, process.execPath, [worker, JSON.stringify(spec)]);
  return {
    ...(readResult(out) as unknown as Omit<LoadResult, 'loadCpuSeconds'>),
    loadCpuSeconds: cpuSeconds,
  };
}

/** Runs the load generator pinned to `core` for spec.durationSeconds and reads its figures. */
export function runLoad(tool: Tool, spec: LoadSpec, core: Core, workDir: string): Promise<LoadResult> {
  return tool === 'wrk' ? runWrk(spec, core, workDir) : runAutocannon(spec, core);
}

export { MARK as RESULT_MARK };
