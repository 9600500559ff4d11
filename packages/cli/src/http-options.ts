import type { Timeouts } from './http-fetch.ts';
import type { CliIo } from './io.ts';
import { type ParsedCommand, stringOption, UsageError } from './usage.ts';

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, readMs: 30_000 };
const MAX_SECONDS = 3_600;

/** The options of every command that calls the API over HTTP. */
export const TIMEOUT_OPTIONS = {
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
} as const;

export const TIMEOUT_HELP = `Timeouts (every HTTP request; a request that runs out is not retried, exit status 4):
  --connect-timeout S   seconds to open the connection (PETSTORE_CONNECT_TIMEOUT, default ${DEFAULT_TIMEOUTS.connectMs / 1_000})
  --timeout S           seconds the server may stay silent while its answer is awaited or read
                        (PETSTORE_TIMEOUT, default ${DEFAULT_TIMEOUTS.readMs / 1_000}); S may have decimals, 0.1 to ${MAX_SECONDS}`;

function seconds(name: string, text: string | undefined, fallbackMs: number): number {
  if (text === undefined || text === '') return fallbackMs;
  const value = /^\d{1,4}(\.\d{1,3})?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0.1 && value <= MAX_SECONDS)) {
    throw new UsageError(
      `${name} must be a number of seconds from 0.1 to ${MAX_SECONDS}, got ${JSON.stringify(text)}`,
    );
  }
  return Math.round(value * 1_000);
}

/** The timeouts asked for: a flag wins over its environment variable, which wins over the default. */
export function readTimeouts(io: CliIo, parsed: ParsedCommand): Timeouts {
  const flag = (name: string) => stringOption(parsed, name);
  const connect = flag('connect-timeout');
  const read = flag('timeout');
  return {
    connectMs:
      connect !== undefined
        ? seconds('--connect-timeout', connect, DEFAULT_TIMEOUTS.connectMs)
        : seconds('PETSTORE_CONNECT_TIMEOUT', io.env.PETSTORE_CONNECT_TIMEOUT, DEFAULT_TIMEOUTS.connectMs),
    readMs:
      read !== undefined
        ? seconds('--timeout', read, DEFAULT_TIMEOUTS.readMs)
        : seconds('PETSTORE_TIMEOUT', io.env.PETSTORE_TIMEOUT, DEFAULT_TIMEOUTS.readMs),
  };
}
