import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RESULT_MARK } from './load.ts';
import type { LoadResult, LoadSpec } from './load.ts';

/** Runs autocannon in its own process (pinned by the caller) for one LoadSpec given as JSON in argv. */
interface Histogram {
  p50: number;
  p99: number;
  total?: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface Request {
  path?: string;
  headers?: Record<string, string>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;

/** A fixed set of random ids, cycled through: autocannon has no per-request scripting language. */
function randomPaths(spec: LoadSpec): string[] {
  const upTo = spec.randomIdUpTo ?? 1;
  return Array.from({ length: 10_000 }, () =>
    spec.path.replace('{id}', String(1 + Math.floor(Math.random() * upTo))),
  );
}

const paths = spec.randomIdUpTo === undefined ? undefined : randomPaths(spec);
const keys = spec.keysFile === undefined ? undefined : readFileSync(spec.keysFile, 'utf8').split('\n');
let next = 0;
let nextKey = 0;
const result = await autocannon({
  url: `${spec.origin}${spec.path.replace('{id}', '1')}`,
  method: spec.method,
  headers: spec.headers,
  body: spec.body,
  connections: spec.connections,
  duration: spec.durationSeconds,
  timeout: 10,
  requests: (paths || keys) && [
    {
      setupRequest: (request: Request) => {
        next = (next + 1) % (paths?.length ?? 1);
        nextKey = (nextKey + 1) % (keys?.length ?? 1);
        return {
          ...request,
          ...(paths && { path: paths[next] }),
          ...(keys && {
            headers: { ...spec.headers, ...request.headers, authorization: `Bearer ${keys[nextKey]}` },
          }),
        };
      },
    },
  ],
});
const total =
  result.requests.total ??
  Object.values(result.statusCodeStats ?? {}).reduce((sum, stat) => sum + Number(stat.count), 0);
const figures: Omit<LoadResult, 'loadCpuSeconds'> = {
  requests: total,
  rps: total / result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
};
console.log(`${RESULT_MARK}${JSON.stringify(figures)}`);
