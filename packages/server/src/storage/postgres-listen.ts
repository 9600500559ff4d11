import pg from 'pg';
import type { PoolSettings } from './postgres-pool.ts';

/** The channel migration 090's trigger notifies, with the schema as the payload. */
export const HOST_CHANGES_CHANNEL = 'petstore_host_changes';
/** After a lost connection, listening starts again this much later (changes are read on a timer meanwhile). */
const RECONNECT_MS = 1_000;

/**
 * `LISTEN petstore_host_changes` on a connection of its own, calling `onNotify` for each change
 * committed in this schema; reconnects after losing its connection. Nothing is lost meanwhile: a
 * notification only says "read the feed now", and the feed is read on a timer anyway.
 */
export function listenForHostChanges(
  settings: Pick<PoolSettings, 'url' | 'schema' | 'applicationName'>,
  onNotify: () => void,
): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const connect = async () => {
    const next = new pg.Client({
      connectionString: settings.url,
      application_name: `${settings.applicationName ?? 'petstore'}-listen`,
      connectionTimeoutMillis: 2_000,
      keepAlive: true,
    });
    let ended = false;
    const again = () => {
      if (ended) return;
      ended = true;
      next.removeAllListeners();
      next.on('error', () => {});
      next.end().catch(() => {});
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    next.on('error', again);
    next.on('end', again);
    try {
      await next.connect();
      const schema =
        settings.schema ?? ((await next.query('SELECT current_schema() AS s')).rows[0] as { s: string }).s;
      next.on('notification', (message) => {
        if (message.payload === schema) onNotify();
      });
      await next.query(`LISTEN ${HOST_CHANGES_CHANNEL}`);
      if (closed) await next.end();
      else {
        client = next;
        // Changes committed while this connection was not listening are read now.
        onNotify();
      }
    } catch {
      again();
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = undefined;
      if (open) {
        open.removeAllListeners();
        open.on('error', () => {});
        await open.end().catch(() => {});
      }
    },
  };
}
