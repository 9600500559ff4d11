import { type Mail, type Mailer, PermanentMailError } from './mailer.ts';

/**
 * How long the outbox waits before each further attempt at a mail that could not be handed over: five
 * attempts over about 37 minutes. After the last, or at once on a permanent refusal (a 5xx reply),
 * the mail is given up with one error line (`"event":"mail.failed"`): the person asks again (a new
 * reset link) or the owner sends a new invitation.
 */
export const MAIL_RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 5 * 60_000, 30 * 60_000];
/** Mails waiting beyond this many (sending, queued or waiting to try again) are refused and logged. */
export const MAX_WAITING_MAILS = 1_000;
/** Mails handed to the mail server at the same time. */
export const MAX_SENDING_MAILS = 2;
/** At shutdown, sends in progress get this long to finish; mails waiting to try again are lost. */
export const OUTBOX_CLOSE_WAIT_MS = 5_000;

export interface OutboxLog {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

export interface Outbox {
  /** The mailer in use (`log`, `smtp://host:port`). */
  readonly describe: string;
  /** Queues the mail and returns at once: a request never waits for the mail server. */
  send(mail: Mail): void;
  /**
   * Sends the mail `make` resolves to (none when undefined), made after the caller has answered: work
   * whose time must not show in an answer (looking an account up). Counted as waiting until made.
   */
  sendWhenMade(make: () => Promise<Mail | undefined>): void;
  /** Resolves once nothing is sending, queued or waiting to try again. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface OutboxOptions {
  mailer: Mailer;
  log: OutboxLog;
  retryDelaysMs?: readonly number[];
  maxWaiting?: number;
}

interface Item {
  mail: Mail;
  attempt: number;
}

/** Sends mails off the request path, a few at a time, trying again with growing waits (in memory). */
export function createOutbox({
  mailer,
  log,
  retryDelaysMs = MAIL_RETRY_DELAYS_MS,
  maxWaiting = MAX_WAITING_MAILS,
}: OutboxOptions): Outbox {
  const queue: Item[] = [];
  const retrying = new Map<NodeJS.Timeout, Item>();
  const sending = new Set<Promise<void>>();
  const making = new Set<Promise<void>>();
  let idleWaiters: (() => void)[] = [];
  let closed = false;
  const about = ({ mail, attempt }: Item) => ({ kind: mail.kind, to: mail.to, attempt });
  const waiting = () => queue.length + retrying.size + sending.size + making.size;

  const settleIdle = () => {
    if (waiting() > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const failed = (item: Item, error: unknown) => {
    const permanent = error instanceof PermanentMailError;
    const reason = error instanceof Error ? error.message : String(error);
    const delay = retryDelaysMs[item.attempt - 1];
    if (permanent || delay === undefined || closed) {
      log.error(
        { event: 'mail.failed', ...about(item), permanent, err: reason },
        `mail given up after ${item.attempt} attempt${item.attempt === 1 ? '' : 's'}`,
      );
      return;
    }
    log.warn(
      { event: 'mail.retry', ...about(item), retryInMs: delay, err: reason },
      'mail not sent: trying again',
    );
    const timer = setTimeout(() => {
      retrying.delete(timer);
      queue.push({ mail: item.mail, attempt: item.attempt + 1 });
      pump();
    }, delay).unref();
    retrying.set(timer, item);
  };

  const pump = () => {
    while (!closed && sending.size < MAX_SENDING_MAILS && queue.length > 0) {
      const item = queue.shift()!;
      const attempt: Promise<void> = mailer.send(item.mail).then(
        () => log.info({ event: 'mail.sent', ...about(item), via: mailer.describe }, 'mail sent'),
        (error: unknown) => failed(item, error),
      );
      sending.add(attempt);
      void attempt.finally(() => {
        sending.delete(attempt);
        pump();
        settleIdle();
      });
    }
    settleIdle();
  };

  const outbox: Outbox = {
    describe: mailer.describe,
    sendWhenMade(make) {
      const made: Promise<void> = make().then(
        (mail) => (mail ? outbox.send(mail) : undefined),
        (error: unknown) =>
          log.error(
            { event: 'mail.failed', attempt: 0, err: error instanceof Error ? error.message : String(error) },
            'a mail could not be made',
          ),
      );
      making.add(made);
      void made.finally(() => {
        making.delete(made);
        settleIdle();
      });
    },
    send(mail) {
      if (closed || waiting() >= maxWaiting) {
        log.error(
          {
            event: 'mail.failed',
            kind: mail.kind,
            to: mail.to,
            attempt: 0,
            err: closed ? 'shutting down' : 'outbox full',
          },
          'mail refused: the outbox is full or closing',
        );
        return;
      }
      queue.push({ mail, attempt: 1 });
      pump();
    },
    idle: () => (waiting() === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    async close() {
      if (closed) return;
      closed = true;
      const lost = [...queue, ...retrying.values()];
      for (const timer of retrying.keys()) clearTimeout(timer);
      retrying.clear();
      queue.length = 0;
      for (const item of lost) {
        log.error(
          { event: 'mail.failed', ...about(item), err: 'shutting down' },
          'mail not sent before shutdown',
        );
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...sending]),
        new Promise((resolve) => (timer = setTimeout(resolve, OUTBOX_CLOSE_WAIT_MS).unref())),
      ]);
      clearTimeout(timer);
      settleIdle();
      await mailer.close();
    },
  };
  return outbox;
}
