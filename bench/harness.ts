import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadResult, type LoadSpec, runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import {
  type Core,
  fetchOnce,
  freePort,
  type Response,
  type Started,
  sampleProcess,
  startPinned,
  stop,
  waitForStatus,
} from './processes.ts';
import { CLI, createKey, seedSqlite, startNodeFlags } from './seed.ts';

/** The repository the benchmark belongs to (`npm start` runs its start script). */
const ROOT = new URL('..', import.meta.url).pathname;

/** Server on core 0, load generator (and page walker) on core 1. */
export const SERVER_CORE: Core = '0';
export const LOAD_CORE: Core = '1';

export interface Target {
  started: Started;
  origin: string;
  /** Milliseconds from spawn to the first expected answer. */
  startupMs: number;
}

export interface Measured extends LoadResult {
  rssMb: number;
  processes: number;
  /** Server CPU time per response, in microseconds: steadier than req/s on a busy machine. */
  cpuMicrosPerRequest: number;
}

export interface Database {
  url: string;
  key: string;
  /** REDIS_URL for the server, when the scenario runs with Redis. */
  redisUrl?: string;
}

/** Shared state of one `npm run bench`: options, the temporary directory, seeded templates, children. */
export class Harness {
  readonly options: BenchOptions;
  readonly workDir: string;
  readonly #templates = new Map<number, Promise<Database>>();
  readonly #running = new Set<Started>();
  #copies = 0;

  constructor(options: BenchOptions, workDir: string) {
    this.options = options;
    this.workDir = workDir;
  }

  /** A fresh SQLite file with `pets` pets and a bench key (a copy of a template seeded once). */
  async sqlite(pets: number): Promise<Database> {
    let template = this.#templates.get(pets);
    if (!template) {
      template = (async () => {
        const url = join(this.workDir, `template-${pets}.db`);
        const started = performance.now();
        await seedSqlite(url, pets);
        const key = createKey(url);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.error(`seeded ${pets.toLocaleString('en-US')} pets and a key in ${seconds} s`);
        return { url, key };
      })();
      this.#templates.set(pets, template);
    }
    const { url, key } = await template;
    this.#copies += 1;
    const copy = join(this.workDir, `run-${this.#copies}-${pets}.db`);
    copyFileSync(url, copy);
    return { url: copy, key };
  }

  auth(db: Database): Record<string, string> {
    return { authorization: `Bearer ${db.key}` };
  }

  #track(started: Started): Started {
    this.#running.add(started);
    started.child.once('exit', () => this.#running.delete(started));
    return started;
  }

  /**
   * `petstore serve` as an operator runs it (node with `npm start`'s flags, or `npm start` itself);
   * resolves once GET /v1/pets answers 200.
   */
  async startPetstore(
    db: Database,
    options: {
      core: Core;
      label: string;
      workers?: number;
      profile?: boolean;
      env?: NodeJS.ProcessEnv;
      npmStart?: boolean;
    },
  ): Promise<Target> {
    const port = await freePort();
    const nodeFlags = startNodeFlags();
    if (options.profile !== false && this.options.profileDir !== undefined) {
      const dir = join(this.options.profileDir, options.label);
      mkdirSync(dir, { recursive: true });
      nodeFlags.push('--cpu-prof', '--cpu-prof-dir', dir);
    }
    const args = options.npmStart
      ? ['--prefix', ROOT, 'start', '--silent', '--', '--port', String(port)]
      : [...nodeFlags, CLI, 'serve', '--port', String(port)];
    if (options.workers !== undefined) args.push('--workers', String(options.workers));
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, DATABASE_URL: db.url };
    if (db.redisUrl !== undefined) env.REDIS_URL = db.redisUrl;
    else delete env.REDIS_URL;
    if (this.options.logLevel !== undefined) env.LOG_LEVEL = this.options.logLevel;
    else delete env.LOG_LEVEL;
    const logFile = join(this.workDir, `${options.label}.log`);
    const command = options.npmStart ? 'npm' : process.execPath;
    const started = this.#track(startPinned(options.core, command, args, { env, logFile }));
    const origin = `http://127.0.0.1:${port}`;
    const readyAt = await waitForStatus(started, `${origin}/v1/pets?limit=20`, this.auth(db));
    return { started, origin, startupMs: readyAt - started.spawnedAt };
  }

  /** The raw node:http server answering with `response`'s body and content type. */
  async startRaw(response: Response, core: Core, label: string): Promise<Target> {
    const port = await freePort();
    const bodyFile = join(this.workDir, `${label}.body`);
    writeFileSync(bodyFile, response.body);
    const contentType = String(response.headers['content-type'] ?? 'application/json');
    const script = new URL('./raw-baseline.ts', import.meta.url).pathname;
    const args = [script, '--port', String(port), '--body-file', bodyFile, '--content-type', contentType];
    args.push('--status', String(response.status));
    const logFile = join(this.workDir, `${label}.log`);
    const started = this.#track(startPinned(core, process.execPath, args, { logFile }));
    const origin = `http://127.0.0.1:${port}`;
    const readyAt = await waitForStatus(started, origin, {}, response.status);
    return { started, origin, startupMs: readyAt - started.spawnedAt };
  }

  /** One request as the load generator would send it (its response shapes the baseline). */
  probe(
    target: Target,
    spec: Omit<LoadSpec, 'origin' | 'connections' | 'durationSeconds'>,
  ): Promise<Response> {
    return fetchOnce(`${target.origin}${spec.path.replace('{id}', '1')}`, {
      method: spec.method,
      headers: spec.headers,
      body: spec.body,
    });
  }

  /** Warm-up, then the measured run, sampling the server's RSS (all its processes) meanwhile. */
  async measure(
    target: Target,
    spec: Omit<LoadSpec, 'origin' | 'connections' | 'durationSeconds'>,
    loadCore: Core = LOAD_CORE,
  ): Promise<Measured> {
    const { options } = this;
    const full = { ...spec, origin: target.origin, connections: options.connections };
    if (options.warmupSeconds > 0) {
      await runLoad(
        options.tool,
        { ...full, durationSeconds: options.warmupSeconds },
        loadCore,
        this.workDir,
      );
    }
    const sampler = sampleProcess(target.started.pid);
    const result = await runLoad(
      options.tool,
      { ...full, durationSeconds: options.durationSeconds },
      loadCore,
      this.workDir,
    );
    const { peakBytes, processes, cpuSeconds } = sampler.stop();
    return {
      ...result,
      rssMb: peakBytes / 1024 / 1024,
      processes,
      cpuMicrosPerRequest: (cpuSeconds * 1e6) / Math.max(1, result.requests),
    };
  }

  stop(target: Target): Promise<void> {
    return stop(target.started);
  }

  /** Stops whatever is still running (after a failure or an interrupt). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#running].map((started) => stop(started, 2_000)));
  }
}
