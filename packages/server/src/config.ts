import type { KeyEnvironment } from './auth/keys.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/limits.ts';

export const ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  port: number;
  host: string;
  /** undefined means the embedded default, ./data/petstore.db */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  environment: Environment;
  logLevel: string;
  publicBaseUrl: string | undefined;
  /** false, true, or a comma list of proxy addresses/CIDRs whose X-Forwarded-For is trusted. */
  trustProxy: boolean | string;
  banThreshold: number;
  banDurationMs: number;
  workers: number;
  /** Timeouts and connection caps of the HTTP server. */
  http: HttpLimits;
  /** /readyz answers 503 while the SQLite database's file system has less free space than this. */
  minFreeDiskBytes: number;
}

/** Flags given on the command line; they win over the environment. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  database?: string;
  redis?: string;
  workers?: string;
}

/** A bad setting: the message names it, and start-up exits with it as one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return Number(text);
}

function oneOf<T extends string>(
  name: string,
  text: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (text === undefined || text === '') return fallback;
  if (!allowed.includes(text as T))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${text}"`);
  return text as T;
}

function url(name: string, text: string | undefined, protocols: string[]): string | undefined {
  if (text === undefined || text === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got "${text}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return text;
}

function database(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  if (/^postgres(ql)?:/.test(text)) return url('DATABASE_URL', text, ['postgres:', 'postgresql:']);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !/^(sqlite|file):/i.test(text)) {
    throw new ConfigError(`DATABASE_URL must be postgres://… or a SQLite file path, got "${text}"`);
  }
  return text;
}

function trustProxy(text: string | undefined): boolean | string {
  if (text === undefined || text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return text;
}

const seconds = (ms: number) => ms / 1000;
const MB = 1024 * 1024;

/** /readyz fails while the database's file system has less free space than this (PETSTORE_MIN_FREE_DISK_MB). */
export const DEFAULT_MIN_FREE_DISK_BYTES = 64 * MB;

function httpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const defaults = DEFAULT_HTTP_LIMITS;
  const headers = 'PETSTORE_HEADERS_TIMEOUT_SECONDS';
  const request = 'PETSTORE_REQUEST_TIMEOUT_SECONDS';
  const limits: HttpLimits = {
    headersTimeoutMs: integer(headers, env[headers], seconds(defaults.headersTimeoutMs), 1, 3600) * 1000,
    requestTimeoutMs: integer(request, env[request], seconds(defaults.requestTimeoutMs), 1, 3600) * 1000,
    keepAliveTimeoutMs:
      integer(
        'PETSTORE_KEEP_ALIVE_TIMEOUT_SECONDS',
        env.PETSTORE_KEEP_ALIVE_TIMEOUT_SECONDS,
        seconds(defaults.keepAliveTimeoutMs),
        1,
        3600,
      ) * 1000,
    maxConnections: integer(
      'PETSTORE_MAX_CONNECTIONS',
      env.PETSTORE_MAX_CONNECTIONS,
      defaults.maxConnections,
      1,
      1_000_000,
    ),
    maxConnectionsPerAddress: integer(
      'PETSTORE_MAX_CONNECTIONS_PER_ADDRESS',
      env.PETSTORE_MAX_CONNECTIONS_PER_ADDRESS,
      defaults.maxConnectionsPerAddress,
      1,
      1_000_000,
    ),
  };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      `${headers} (${seconds(limits.headersTimeoutMs)}) must not exceed ${request} (${seconds(limits.requestTimeoutMs)})`,
    );
  }
  return limits;
}

export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  return {
    port: integer(flags.port !== undefined ? '--port' : 'PORT', flags.port ?? env.PORT, 8080, 0, 65_535),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    databaseUrl: database(flags.database ?? env.DATABASE_URL),
    redisUrl: url(flags.redis !== undefined ? '--redis' : 'REDIS_URL', flags.redis ?? env.REDIS_URL, [
      'redis:',
      'rediss:',
    ]),
    environment: oneOf('PETSTORE_ENV', env.PETSTORE_ENV, ENVIRONMENTS, 'development'),
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info'),
    publicBaseUrl: url('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL, ['http:', 'https:']),
    trustProxy: trustProxy(env.TRUST_PROXY),
    banThreshold: integer('PETSTORE_BAN_THRESHOLD', env.PETSTORE_BAN_THRESHOLD, 30, 1, 1_000_000),
    banDurationMs: integer('PETSTORE_BAN_SECONDS', env.PETSTORE_BAN_SECONDS, 900, 1, 86_400 * 30) * 1000,
    workers: integer(
      flags.workers !== undefined ? '--workers' : 'PETSTORE_WORKERS',
      flags.workers ?? env.PETSTORE_WORKERS,
      1,
      1,
      64,
    ),
    http: httpLimits(env),
    minFreeDiskBytes:
      integer(
        'PETSTORE_MIN_FREE_DISK_MB',
        env.PETSTORE_MIN_FREE_DISK_MB,
        DEFAULT_MIN_FREE_DISK_BYTES / MB,
        0,
        1_000_000,
      ) * MB,
  };
}

export function keyEnvironmentOf(environment: Environment): KeyEnvironment {
  return environment === 'production' ? 'live' : 'test';
}
