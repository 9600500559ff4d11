import type { SqlExecutor } from './sql-executor.ts';

/**
 * One change of what routes a host (migration 090): a project (its id and slug) or a custom domain
 * (its name and project) was written; or of a key (migration 125: its id alone); or of an account's
 * access tokens (migration 150: the account's id alone). A reader drops what it cached about each
 * name it mentions.
 */
export interface HostChange {
  seq: number;
  projectId: string | null;
  slug: string | null;
  hostname: string | null;
  keyId: string | null;
  accountId: string | null;
}

/** The sequence numbers a notification names (migration 150); absent from an older trigger. */
export interface NotifiedRange {
  first: number;
  last: number;
}

/**
 * What instances listening on one database tell each other on the feed's channel (PostgreSQL): that
 * one listens (`hello`) or stops (`bye`), and that it has applied the changes of a notification
 * (`ack`): the instance that made a change answers once every instance it knows has applied it.
 */
export type PeerMessage =
  { kind: 'hello' | 'bye'; instance: string } | { kind: 'ack'; instance: string; range: NotifiedRange };

/** What a listener of the feed's notifications is told: a change's notification, or a peer's message. */
export interface ChangeHandlers {
  /** A change committed (with the sequence numbers its statement appended); none after (re)connecting. */
  change(range?: NotifiedRange): void;
  peer(message: PeerMessage): void;
  /** The listening connection was lost: nothing is heard until `change()` says it listens again. */
  lost(): void;
}

/**
 * A listening connection: closed once; `send` tells every listening instance, resolving once sent
 * (a message is dropped while not connected, and a failure is no error: peers tolerate silence).
 */
export interface ChangeListener {
  close(): Promise<void>;
  send(message: PeerMessage): Promise<void>;
}

/** The change feed's table: written by triggers (and publishChange), read by every instance. */
export interface ChangeRecords {
  /** The changes after `seq`, oldest first, at most `limit` of them (an index range, however long the table). */
  since(seq: number, limit: number): Promise<HostChange[]>;
  /** The newest sequence number, 0 when there is none: where a new reader starts. */
  newest(): Promise<number>;
  /** Deletes at most `limit` changes recorded before `before` (epoch ms); how many. */
  prune(before: number, limit: number): Promise<number>;
  /** Appends a change on its own (see publishChange for one inside a transaction). */
  publish(change: ChangeNotice): Promise<void>;
}

/** What a write outside the triggered tables tells the readers: at least one of the five. */
export interface ChangeNotice {
  projectId?: string;
  slug?: string;
  hostname?: string;
  keyId?: string;
  accountId?: string;
}

/**
 * Appends a change to the feed through `sql` — the executor of the caller's own transaction, so the
 * change is published exactly when the write commits. Writes of `projects` and `custom_domains` are
 * published by their triggers already; this is for anything else that changes what a host serves.
 */
export async function publishChange(sql: SqlExecutor, change: ChangeNotice): Promise<void> {
  await sql.run(
    'INSERT INTO host_changes (project_id, slug, hostname, key_id, account_id) VALUES ($1, $2, $3, $4, $5)',
    [
      change.projectId ?? null,
      change.slug ?? null,
      change.hostname ?? null,
      change.keyId ?? null,
      change.accountId ?? null,
    ],
  );
}

/**
 * The sequence number of the newest change of a key or of an account's tokens that `sql` sees: run
 * inside the transaction that made the change, its own (the triggers appended it), so that once the
 * change commits its maker can wait for it to come back (ChangeFeed.echo). Undefined when there is none.
 */
export async function newestChangeOf(
  sql: SqlExecutor,
  subject: { keyId: string } | { accountId: string },
): Promise<number | undefined> {
  const [column, value] = 'keyId' in subject ? ['key_id', subject.keyId] : ['account_id', subject.accountId];
  const [row] = await sql.all(`SELECT max(seq) AS seq FROM host_changes WHERE ${column} = $1`, [value]);
  return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
}

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

export function createChangeRecords(sql: SqlExecutor): ChangeRecords {
  return {
    since: async (seq, limit) =>
      (
        await sql.all(
          'SELECT seq, project_id, slug, hostname, key_id, account_id FROM host_changes WHERE seq > $1 ORDER BY seq LIMIT $2',
          [seq, limit],
          'petstore_host_changes_since',
        )
      ).map((row) => ({
        seq: Number(row.seq),
        projectId: text(row.project_id),
        slug: text(row.slug),
        hostname: text(row.hostname),
        keyId: text(row.key_id),
        accountId: text(row.account_id),
      })),
    async newest() {
      const [row] = await sql.all('SELECT max(seq) AS seq FROM host_changes');
      return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
    },
    prune: (before, limit) =>
      sql.run(
        'DELETE FROM host_changes WHERE seq IN (SELECT seq FROM host_changes WHERE at < $1 ORDER BY at LIMIT $2)',
        [before, limit],
      ),
    publish: (change) => publishChange(sql, change),
  };
}
