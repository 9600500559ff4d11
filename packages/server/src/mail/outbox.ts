import { randomBytes } from 'node:crypto';
import { createOutboxRecords, type OutboxStats } from './outbox-records.ts';
import type { Storage } from '../storage/repository.ts';
import type { SqlExecutor } from '../storage/sql-executor.ts';
import type { Clock } from '../time/clock.ts';
import { type Mail, type Mailer, PermanentMailError } from './mailer.ts';

/**
 * How long the outbox waits before each further attempt at a mail that could not be handed over: five
 * attempts over about 37 minutes. After the last, or at once on a permanent refusal (a 5xx reply),
 * the mail is given up: its row says `failed` (an invitation's shows "not delivered" with a Resend on
 * the members page) and one error line (`"event":"mail.failed"`) is logged.
 */
export const MAIL_RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 5 * 60_000, 30 * 60_000];
/**
 * Mails queued at once, all instances together: a change that would queue one more is refused
 * (503 service_unavailable: the invitation is not made; a reset request is answered as ever and its
 * mail not made, with an error line), rather than the table growing while the mail server is away.
 */
export const MAX_QUEUED_MAILS = 10_000;
/** Mails handed to the mail server at the same time, by the one instance that delivers. */
export const MAX_SENDING_MAILS = 2;
/** At shutdown, sends in progress get this long to finish; anything else simply stays queued. */
export const OUTBOX_CLOSE_WAIT_MS = 5_000;
/** How often an instance looks for mails due (a read); only with one due does it ask for the lease. */
export const OUTBOX_POLL_MS = 2_000;
/** The delivery lease outlives four missed polls: an instance killed is replaced within 10 s. */
export const OUTBOX_LEASE_TTL_MS = 5 * OUTBOX_POLL_MS;
/**
 * A mail claimed for an attempt is held this long, and held again every OUTBOX_POLL_MS while its
 * attempt runs (a conversation may last longer: smtp-mailer.ts): an instance killed mid-send leaves
 * it to be tried again within this time.
 */
export const MAIL_CLAIM_MS = 30_000;

export interface OutboxLog {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

export interface Outbox {
  /** The mailer in use (`log`, `smtp://host:port`). */
  readonly describe: string;
  /**
   * Queues `mail` in the transaction of `sql` (the change that causes it), about `subjectRef` (an
   * invitation's id) when given; OutboxFullError when MAX_QUEUED_MAILS wait already. Call `wake` once
   * the transaction committed. Resolves with the row's id.
   */
  queue(sql: SqlExecutor, mail: Mail, subjectRef?: string | null): Promise<string>;
  /** Looks for mails due now (this instance delivers them if it holds, or gets, the lease). */
  wake(): void;
  /**
   * Runs `make` after the caller has answered (work whose time must not show in an answer, such as
   * looking an account up), then wakes; a failure is one error line. `idle` waits for it.
   */
  sendWhenMade(make: () => Promise<unknown>): void;
  /** Starts looking for mails due every OUTBOX_POLL_MS (the server does once it listens). */
  start(): void;
  /** Resolves once nothing is being made or sent and no mail is due now (a later retry may wait). */
  idle(): Promise<void>;
  /** The queue as the last poll read it (for /metrics). */
  stats(): OutboxStats & { readAt: number | null };
  /** Stops delivering: sends in progress get OUTBOX_CLOSE_WAIT_MS; every other mail stays queued. */
  close(): Promise<void>;
}

/**
 * Who delivers: one instance at a time, the holder of the `outbox` lease (maintenance/lease.ts, a row
 * of maintenance_leases with OUTBOX_LEASE_TTL_MS), renewed before each batch.
 */
export interface DeliveryLease {
  /** Takes the lease, or renews it when held already; false while another instance holds it. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

export interface OutboxOptions {
  storage: Pick<Storage, 'sql' | 'kind'>;
  lease: DeliveryLease;
  mailer: Mailer;
  log: OutboxLog;
  clock: Clock;
  retryDelaysMs?: readonly number[];
  maxQueued?: number;
  /** Who this instance is, in the rows it claims (default: random). */
  owner?: string;
  pollMs?: number;
}

const KIND = 'mail';

/** What stays of a mail once delivered or given up: never its text, which may hold a link. */
const summaryOf = (mail: Mail) => ({ to: mail.to, subject: mail.subject });

/**
 * The durable outbox: each mail a row of the outbox table (mail/outbox-records.ts), written with
 * the change that causes it, delivered by the one instance holding the `outbox` lease, a few at a
 * time, and marked sent only once the mail server accepted it (250 after DATA). A row's id is its
 * mail's Message-ID, so the rare repeat (an instance killed between the server's 250 and the mark)
 * is the same message. Stopping, or being killed, loses nothing: what is queued stays queued.
 */
export function createOutbox({
  storage,
  lease,
  mailer,
  log,
  clock,
  retryDelaysMs = MAIL_RETRY_DELAYS_MS,
  maxQueued = MAX_QUEUED_MAILS,
  owner = `outbox:${randomBytes(9).toString('base64url')}`,
  pollMs = OUTBOX_POLL_MS,
}: OutboxOptions): Outbox {
  const records = createOutboxRecords(storage.sql, storage.kind);
  const making = new Set<Promise<void>>();
  let held = false;
  let closed = false;
  let round: Promise<void> | undefined;
  let again = false;
  let unreachable = false;
  let timer: NodeJS.Timeout | undefined;
  let lastStats: OutboxStats & { readAt: number | null } = { queued: 0, oldestQueuedAt: null, readAt: null };
  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

  /** One attempt at a claimed row, recorded as sent, to try again, or given up. */
  const attempt = async (row: Awaited<ReturnType<typeof records.claim>>[number]) => {
    const mail = { ...(row.payload as Omit<Mail, 'kind' | 'id'>), kind: row.topic, id: row.id };
    const about = { id: row.id, kind: row.topic, to: mail.to, attempt: row.attempts };
    try {
      await mailer.send(mail);
    } catch (error) {
      const permanent = error instanceof PermanentMailError;
      const delay = retryDelaysMs[row.attempts - 1];
      if (permanent || delay === undefined) {
        await records.failed(row.id, owner, reason(error).slice(0, 500), summaryOf(mail));
        log.error(
          { event: 'mail.failed', ...about, permanent, err: reason(error) },
          `mail given up after ${row.attempts} attempt${row.attempts === 1 ? '' : 's'}`,
        );
        return;
      }
      await records.retryAt(row.id, owner, clock.now() + delay, reason(error).slice(0, 500));
      log.warn(
        { event: 'mail.retry', ...about, retryInMs: delay, err: reason(error) },
        'mail not sent: trying again',
      );
      return;
    }
    // The server said 250 to the DATA: the mail is its now.
    await records.sent(row.id, owner, clock.now(), summaryOf(mail));
    log.info({ event: 'mail.sent', ...about, via: mailer.describe }, 'mail sent');
  };

  /** Claims and sends what is due, MAX_SENDING_MAILS at a time, while this instance holds the lease. */
  const deliver = async () => {
    for (;;) {
      if (closed || !(await lease.acquire())) {
        held = false;
        return;
      }
      held = true;
      const now = clock.now();
      const claimed = await records.claim(KIND, owner, now, now + MAIL_CLAIM_MS, MAX_SENDING_MAILS);
      if (claimed.length === 0) return;
      const heartbeat = setInterval(() => {
        void Promise.all([lease.acquire(), records.extendClaims(owner, clock.now() + MAIL_CLAIM_MS)]).catch(
          // Not held longer: the claims run out, and the mails are tried again (the same Message-ID).
          () => {},
        );
      }, pollMs).unref();
      await Promise.all(
        claimed.map((row) =>
          attempt(row).catch((error: unknown) =>
            // The database went away meanwhile: the claim runs out and the mail is tried again then.
            log.warn(
              { event: 'mail.unrecorded', id: row.id, err: reason(error) },
              'mail attempt not recorded',
            ),
          ),
        ),
      ).finally(() => clearInterval(heartbeat));
    }
  };

  /** A poll: reads the queue (for the metrics, and whether anything is due), delivers when so. */
  const poll = async () => {
    const stats = await records.stats();
    lastStats = { ...stats, readAt: clock.now() };
    if (stats.queued === 0) return;
    const due = await records.nextDue(KIND);
    if (due !== null && due <= clock.now()) await deliver();
  };

  const wake = () => {
    if (closed) return;
    if (round) {
      again = true;
      return;
    }
    round = poll()
      .then(
        () => {
          unreachable = false;
        },
        (error: unknown) => {
          held = false;
          // Once per outage: the database's own failures are reported where they are found.
          if (!unreachable) {
            log.warn(
              { event: 'mail.poll_failed', err: reason(error) },
              'outbox not reachable; trying again later',
            );
          }
          unreachable = true;
        },
      )
      .finally(() => {
        round = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  const settled = async () => {
    while (round || making.size > 0) await Promise.allSettled([round, ...making]);
  };

  return {
    describe: mailer.describe,
    async queue(sql, mail, subjectRef = null) {
      const id = `ob_${randomBytes(12).toString('hex')}`;
      const { kind, ...payload } = mail;
      await createOutboxRecords(sql, storage.kind).add(
        { id, kind: KIND, topic: kind, subjectRef, payload, createdAt: clock.now() },
        maxQueued,
      );
      return id;
    },
    wake,
    sendWhenMade(make) {
      const made: Promise<void> = make().then(
        () => wake(),
        (error: unknown) =>
          log.error({ event: 'mail.failed', attempt: 0, err: reason(error) }, 'a mail could not be made'),
      );
      making.add(made);
      void made.finally(() => making.delete(made));
    },
    start() {
      if (timer || closed) return;
      timer = setInterval(wake, pollMs).unref();
      wake();
    },
    async idle() {
      for (;;) {
        await settled();
        const due = await records.nextDue(KIND);
        if (closed || due === null || due > clock.now()) return;
        wake();
        await round;
        // Another instance holds the lease: it delivers at its next poll.
        if (!held) await new Promise((resolve) => setTimeout(resolve, pollMs / 4));
      }
    },
    stats: () => lastStats,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        settled(),
        new Promise((resolve) => (wait = setTimeout(resolve, OUTBOX_CLOSE_WAIT_MS).unref())),
      ]);
      clearTimeout(wait);
      if (held) await lease.release().catch(() => {});
      await mailer.close();
    },
  };
}
