import { isIP } from 'node:net';
import type { KeyEnvironment } from './auth/keys.ts';
import { isSerializedOrigin } from './http/cors.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/limits.ts';
import { mailSettings, type MailSettings } from './mail/settings.ts';

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
  /** The log line of one answer below 400 in this many (LOG_SAMPLE); 4xx and 5xx always have theirs. */
  logSample: number;
  publicBaseUrl: string | undefined;
  /** false, true, or a comma list of proxy addresses/CIDRs whose X-Forwarded-For is trusted. */
  trustProxy: boolean | string;
  banThreshold: number;
  banDurationMs: number;
  workers: number;
  /** Projects' docs sites live at `<slug>.<siteDomain>` (and their custom domains point there). */
  siteDomain: string;
  /** The host that serves /v1 and /dashboard; undefined means any host that is not a site. */
  apiHost: string | undefined;
  /**
   * The internal listener (PETSTORE_INTERNAL_PORT, PETSTORE_INTERNAL_HOST): where the TLS proxy asks
   * whether a name may have a certificate. Off unless a port is set; never reachable on the public port.
   */
  internal: { host: string; port: number } | undefined;
  /** DNS servers (`ip` or `ip:port`) custom domains are checked with; undefined: the system's resolvers. */
  dnsServers: string[] | undefined;
  /** The CAA identity of the CA issuing the custom domains' certificates. */
  caIdentity: string;
  /** The key sealing TOTP secrets (PETSTORE_TWO_FACTOR_KEY, 32 bytes); undefined: one kept in the database. */
  twoFactorKey: Buffer | undefined;
  /** Custom domains an Enterprise project may have (PETSTORE_ENTERPRISE_DOMAINS). */
  enterpriseDomains: number;
  /** The TLS proxy (`host:port`), asked for each verified domain's certificate; undefined: not shown. */
  tlsProbe: { host: string; port: number } | undefined;
  /** Origins whose browser pages may read responses: `*` for any, else exact origins (empty: none). */
  corsOrigins: '*' | string[];
  /** Timeouts and connection caps of the HTTP server. */
  http: HttpLimits;
  /** /readyz answers 503 while the SQLite database's file system has less free space than this. */
  minFreeDiskBytes: number;
  /** Whether API requests made with projects' keys are written to the request log (PETSTORE_REQUEST_LOG). */
  requestLog: boolean;
  /**
   * How often each instance reads the change feed of projects and domains without being told
   * (PETSTORE_CHANGE_POLL_MS); undefined: the feed's default, CHANGE_POLL_MS (1 s).
   */
  changePollMs: number | undefined;
  /** Where mail goes (PETSTORE_SMTP_URL; without it, the log) and who sends it (PETSTORE_MAIL_FROM). */
  mail: MailSettings;
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
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
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
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(text)}`);
  return text as T;
}

function url(name: string, text: string | undefined, protocols: string[]): string | undefined {
  if (text === undefined || text === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got ${JSON.stringify(text)}`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name} must use ${protocols.join(' or ')}, got ${JSON.stringify(parsed.protocol)}`,
    );
  }
  return text;
}

function database(name: string, text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  if (/^postgres(ql)?:/.test(text)) return url(name, text, ['postgres:', 'postgresql:']);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !/^(sqlite|file):/i.test(text)) {
    throw new ConfigError(`${name} must be postgres://… or a SQLite file path, got ${JSON.stringify(text)}`);
  }
  return text;
}

const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A DNS name in lower case, without a port or trailing dot. */
function hostname(name: string, text: string | undefined, fallback: string | undefined): string | undefined {
  if (text === undefined || text === '') return fallback;
  if (!HOSTNAME.test(text)) {
    throw new ConfigError(`${name} must be a host name in lower case, without scheme or port, got "${text}"`);
  }
  return text;
}

/** A hostname (RFC 1123 labels) or an IP address; a dotted quad must be a real IPv4 address. */
function host(name: string, text: string | undefined): string {
  if (text === undefined || text === '') return '127.0.0.1';
  const hostname =
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
  const dotted = /^[\d.]+$/.test(text);
  if (isIP(text) === 0 && (dotted || !hostname.test(text))) {
    throw new ConfigError(`${name} must be an IP address or a host name, got ${JSON.stringify(text)}`);
  }
  return text;
}

/** The names proxy-addr (behind Fastify's trustProxy) accepts beside addresses and ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  const bits = family === 4 ? 32 : 128;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= bits;
  return family === 4 && isIP(range) === 4;
}

/** `ip` or `ip:port` (`[v6]:port`), as node:dns takes them. */
function dnsServers(text: string | undefined): string[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(',').map((entry) => {
    const server = entry.trim();
    const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(server);
    const address = match?.[1] ?? match?.[2] ?? '';
    const port = match?.[3] === undefined ? 53 : Number(match[3]);
    if (
      isIP(address) === 0 ||
      port < 1 ||
      port > 65_535 ||
      (match?.[2] !== undefined && isIP(address) === 6)
    ) {
      throw new ConfigError(
        `PETSTORE_DNS_SERVERS must list DNS servers as ip or ip:port ([v6]:port), comma-separated, got ${JSON.stringify(text)}`,
      );
    }
    return server;
  });
}

/** `host:port`, e.g. `127.0.0.1:443`. */
function hostPort(name: string, text: string | undefined): { host: string; port: number } | undefined {
  if (text === undefined || text === '') return undefined;
  const match = /^(.+):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65_535) {
    throw new ConfigError(`${name} must be host:port, such as 127.0.0.1:443, got ${JSON.stringify(text)}`);
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

function trustProxy(text: string | undefined): boolean | string {
  if (text === undefined || text === '' || text === 'false') return false;
  if (text === 'true') return true;
  const entries = text.split(',').map((entry) => entry.trim());
  if (!entries.every(proxyEntry)) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, or a comma list of proxy addresses, CIDR ranges or loopback, linklocal, uniquelocal, got ${JSON.stringify(text)}`,
    );
  }
  return entries.join(',');
}

/** PETSTORE_CORS_ORIGINS: comma-separated origins exactly as browsers send them, or `*` alone. */
function corsOrigins(text: string | undefined): '*' | string[] {
  if (text === undefined || text.trim() === '') return [];
  if (text.trim() === '*') return '*';
  return text.split(',').map((entry) => {
    const origin = entry.trim();
    if (isSerializedOrigin(origin)) return origin;
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    const hint = url && /^https?:$/.test(url.protocol) ? `; write it as "${url.origin}"` : '';
    throw new ConfigError(
      `PETSTORE_CORS_ORIGINS must list origins such as https://app.example.com, or be * alone; "${origin}" is not one${hint}`,
    );
  });
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

/** 32 bytes, as 64 hex digits or base64 (`openssl rand -base64 32`). */
function secretKey(name: string, text: string | undefined): Buffer | undefined {
  if (text === undefined || text === '') return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined;
  if (key?.length !== 32) {
    throw new ConfigError(`${name} must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)`);
  }
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  return {
    port: integer(flags.port !== undefined ? '--port' : 'PORT', flags.port ?? env.PORT, 8080, 0, 65_535),
    host: host(flags.host !== undefined ? '--host' : 'HOST', flags.host ?? env.HOST),
    databaseUrl: database(
      flags.database !== undefined ? '--database' : 'DATABASE_URL',
      flags.database ?? env.DATABASE_URL,
    ),
    redisUrl: url(flags.redis !== undefined ? '--redis' : 'REDIS_URL', flags.redis ?? env.REDIS_URL, [
      'redis:',
      'rediss:',
    ]),
    environment: oneOf('PETSTORE_ENV', env.PETSTORE_ENV, ENVIRONMENTS, 'development'),
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info'),
    logSample: integer('LOG_SAMPLE', env.LOG_SAMPLE, 1, 1, 1_000_000),
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
    siteDomain: hostname('PETSTORE_SITE_DOMAIN', env.PETSTORE_SITE_DOMAIN, 'sites.localhost')!,
    apiHost: hostname('PETSTORE_API_HOST', env.PETSTORE_API_HOST, undefined),
    internal:
      env.PETSTORE_INTERNAL_PORT === undefined || env.PETSTORE_INTERNAL_PORT === ''
        ? undefined
        : {
            port: integer('PETSTORE_INTERNAL_PORT', env.PETSTORE_INTERNAL_PORT, 0, 0, 65_535),
            host: host('PETSTORE_INTERNAL_HOST', env.PETSTORE_INTERNAL_HOST),
          },
    dnsServers: dnsServers(env.PETSTORE_DNS_SERVERS),
    caIdentity: hostname('PETSTORE_CA_IDENTITY', env.PETSTORE_CA_IDENTITY, 'letsencrypt.org')!,
    twoFactorKey: secretKey('PETSTORE_TWO_FACTOR_KEY', env.PETSTORE_TWO_FACTOR_KEY),
    enterpriseDomains: integer(
      'PETSTORE_ENTERPRISE_DOMAINS',
      env.PETSTORE_ENTERPRISE_DOMAINS,
      200,
      1,
      100_000,
    ),
    tlsProbe: hostPort('PETSTORE_TLS_PROBE', env.PETSTORE_TLS_PROBE),
    corsOrigins: corsOrigins(env.PETSTORE_CORS_ORIGINS),
    http: httpLimits(env),
    minFreeDiskBytes:
      integer(
        'PETSTORE_MIN_FREE_DISK_MB',
        env.PETSTORE_MIN_FREE_DISK_MB,
        DEFAULT_MIN_FREE_DISK_BYTES / MB,
        0,
        1_000_000,
      ) * MB,
    requestLog: oneOf('PETSTORE_REQUEST_LOG', env.PETSTORE_REQUEST_LOG, ['on', 'off'], 'on') === 'on',
    changePollMs:
      env.PETSTORE_CHANGE_POLL_MS === undefined || env.PETSTORE_CHANGE_POLL_MS === ''
        ? undefined
        : integer('PETSTORE_CHANGE_POLL_MS', env.PETSTORE_CHANGE_POLL_MS, 0, 10, 3_600_000),
    mail: mailSettings(env.PETSTORE_SMTP_URL, env.PETSTORE_MAIL_FROM, (message) => new ConfigError(message)),
  };
}

/**
 * The dashboard's origin as configured: PUBLIC_BASE_URL's origin, else PETSTORE_API_HOST over HTTPS;
 * undefined when neither is set. Links in mails start with it, never with a request's Host header.
 */
export function configuredOrigin(config: Pick<Config, 'publicBaseUrl' | 'apiHost'>): string | undefined {
  if (config.publicBaseUrl !== undefined) return new URL(config.publicBaseUrl).origin;
  return config.apiHost === undefined ? undefined : `https://${config.apiHost}`;
}

/** Addresses that reach this machine's listener as `localhost` does: loopback, and every address. */
const LOCAL_BINDS = /^(127\.\d+\.\d+\.\d+|::1|0\.0\.0\.0|::|localhost)$/;

/**
 * The one origin every link the service mails and the command line prints starts with: the configured
 * origin (configuredOrigin), else `http://localhost:PORT` for a server bound to a loopback or every
 * address (a WebAuthn relying party must be a name, never an IP address), else its own address.
 * `port` is the one the server listens on, when it differs from the configured one (`--port 0`).
 */
export function publicOrigin(
  config: Pick<Config, 'publicBaseUrl' | 'apiHost' | 'host' | 'port'>,
  port = config.port,
): string {
  const configured = configuredOrigin(config);
  if (configured !== undefined) return configured;
  const host = LOCAL_BINDS.test(config.host)
    ? 'localhost'
    : isIP(config.host) === 6
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${port}`;
}

/**
 * What serving needs beyond each setting being valid: in production the API must have its own host
 * name, so that no other name (a tenant's domain, a stray DNS record) ever reaches its pages.
 */
export function checkServingConfig(config: Config): void {
  if (config.environment === 'production' && config.apiHost === undefined) {
    throw new ConfigError(
      'PETSTORE_API_HOST must be set when PETSTORE_ENV=production: the host name of the API and dashboard, such as api.example.com',
    );
  }
}

export function keyEnvironmentOf(environment: Environment): KeyEnvironment {
  return environment === 'production' ? 'live' : 'test';
}
