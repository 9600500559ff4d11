import pg from 'pg';
import type { ChangeHandlers, ChangeListener, NotifiedRange, PeerMessage } from './change-records.ts';
import type { PoolSettings } from './postgres-pool.ts';

/**
 * The channel of the change feed. Payloads begin with the schema: migration 090's trigger sends the
 * schema alone, migration 150's the schema and the first and last sequence numbers its statement
 * appended (`<schema> <first> <last>`); instances tell each other `<schema> hello <id>`,
 * `<schema> bye <id>` and `<schema> ack <id> <first> <last>` (PeerMessage).
 */
export const HOST_CHANGES_CHANNEL = 'petstore_host_changes';

const RANGE = /^(\d{1,19}) (\d{1,19})$/;
const PEER = /^(hello|bye|ack) ([0-9a-f]{16})(?: (\d{1,19}) (\d{1,19}))?$/;

/** What a payload of this schema says; undefined for another schema's (or one that is no message). */
export function parsePayload(
  payload: string | undefined,
  schema: string,
): { change: NotifiedRange | undefined } | { peer: PeerMessage } | undefined {
  if (payload === schema) return { change: undefined };
  if (!payload?.startsWith(`${schema} `)) return undefined;
  const rest = payload.slice(schema.length + 1);
  const range = RANGE.exec(rest);
  if (range) return { change: { first: Number(range[1]), last: Number(range[2]) } };
  const peer = PEER.exec(rest);
  if (!peer) return undefined;
  const [, kind, instance, first, last] = peer;
  if (kind === 'ack') {
    if (first === undefined) return undefined;
    return { peer: { kind, instance: instance!, range: { first: Number(first), last: Number(last) } } };
  }
  return { peer: { kind: kind as 'hello' | 'bye', instance: instance! } };
}

/** A peer's message as a payload of this schema. */
export function peerPayload(message: PeerMessage, schema: string): string {
  const range = message.kind === 'ack' ? ` ${message.range.first} ${message.range.last}` : '';
  return `${schema} ${message.kind} ${message.instance}${range}`;
}

/** After a lost connection, listening starts again this much later (changes are read on a timer meanwhile). */
const RECONNECT_MS = 1_000;

/**
 * `LISTEN petstore_host_changes` on a connection of its own: each change committed in this schema
 * (with the sequence numbers it appended) and each other instance's message is handed on; `send`
 * notifies on the same connection. It reconnects after losing its connection, and then reports a
 * change without a range once. Nothing is lost meanwhile: a notification only says "read the feed
 * now", and the feed is read on a timer anyway.
 */
export function listenForHostChanges(
  settings: Pick<PoolSettings, 'url' | 'schema' | 'applicationName'>,
  handlers: ChangeHandlers,
): ChangeListener {
  let client: pg.Client | undefined;
  let schemaName: string | undefined;
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
      if (client === next) {
        client = undefined;
        handlers.lost();
      }
      if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    next.on('error', again);
    next.on('end', again);
    try {
      await next.connect();
      const schema =
        settings.schema ?? ((await next.query('SELECT current_schema() AS s')).rows[0] as { s: string }).s;
      next.on('notification', (message) => {
        const said = parsePayload(message.payload, schema);
        if (!said) return;
        if ('peer' in said) handlers.peer(said.peer);
        else handlers.change(said.change);
      });
      await next.query(`LISTEN ${HOST_CHANGES_CHANNEL}`);
      if (closed) await next.end();
      else {
        client = next;
        schemaName = schema;
        // Changes committed while this connection was not listening are read now.
        handlers.change();
      }
    } catch {
      again();
    }
  };
  void connect();
  return {
    async send(message) {
      if (!client || schemaName === undefined) return;
      await client
        .query('SELECT pg_notify($1, $2)', [HOST_CHANGES_CHANNEL, peerPayload(message, schemaName)])
        .catch(() => {});
    },
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
