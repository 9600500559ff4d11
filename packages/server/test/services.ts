import net from 'node:net';
import { createLoopAwareTimeout } from '../src/time/loop-aware-timeout.ts';

/**
 * Where the PostgreSQL and Redis suites find their servers. Without them a plain `npm test` skips
 * those suites and says so; with PETSTORE_REQUIRE_SERVICES=1 (set by CI) a missing server fails.
 */
export const POSTGRES_URL =
  process.env.PETSTORE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.PETSTORE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const required = process.env.PETSTORE_REQUIRE_SERVICES === '1';

// Loop-aware: a file's first probe runs while its imports still hold the event loop, and a plain
// timer would then fire before the socket that already connected is read.
const connectTimeout = createLoopAwareTimeout(1_000);

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return connectTimeout
    .within(connected, `connect to ${hostname}:${port}`)
    .then(
      () => true,
      () => false,
    )
    .finally(() => socket.destroy());
}

/**
 * Resolves to the URL when the server answers, or to a skip reason for node:test's `skip` option.
 * Throws when the server is required (CI) but unreachable, so CI never skips silently.
 */
export async function service(name: 'postgres' | 'redis'): Promise<{ url: string } | { skip: string }> {
  const url = name === 'postgres' ? POSTGRES_URL : REDIS_URL;
  if (await reachable(url)) return { url };
  const how = `start ${name} on ${new URL(url).host} (or set PETSTORE_TEST_${name.toUpperCase()}_URL)`;
  if (required)
    throw new Error(`${name} is required (PETSTORE_REQUIRE_SERVICES=1) but unreachable at ${url}`);
  console.warn(`# SKIPPED: ${name} suites: ${name} is not reachable at ${url}; ${how} to run them`);
  return { skip: `${name} not reachable at ${url}` };
}
