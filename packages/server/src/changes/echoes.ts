import type { NotifiedRange, PeerMessage } from '../storage/change-records.ts';
import { createLoopAwareTimeout } from '../time/loop-aware-timeout.ts';

/**
 * How long the instance that made a change waits, at most, for the change to come back to it and to
 * be applied by every instance it knows: counted in time the event loop was free
 * (time/loop-aware-timeout.ts), so a busy process never gives up on an answer already waiting to be
 * read. Past it the change is answered anyway, and the instances that stayed silent are waited for no
 * more until they speak again.
 */
export const ECHO_TIMEOUT_MS = 2_000;
/** Ranges remembered per instance, for a maker that starts waiting after its answers arrived. */
const KEPT = 256;

const covers = (ranges: readonly NotifiedRange[], seq: number) =>
  ranges.some((range) => range.first <= seq && seq <= range.last);
const remember = (ranges: NotifiedRange[], range: NotifiedRange) => {
  ranges.push(range);
  if (ranges.length > KEPT) ranges.shift();
};

export interface EchoDeps {
  /** Tells every listening instance (PostgreSQL NOTIFY on the feed's channel). */
  send(message: PeerMessage): Promise<void>;
  /** Whether this instance has handed change `seq` to its caches. */
  applied(seq: number): boolean;
  log: { warn(obj: object, msg: string): void };
}

/**
 * What the instance that made a change waits for before it answers (a revocation: docs/reliability.md):
 * its own notification back (PostgreSQL has sent it to every listening instance), the change applied
 * here, and an acknowledgement from every other instance it knows that it has applied the change too.
 * Instances say `hello` when they start listening (and answer an unknown one's hello with theirs, so
 * both know each other), `ack` each notification once its changes are applied, `bye` when they close.
 */
export function createEchoes(deps: EchoDeps) {
  const self = process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex');
  const own: NotifiedRange[] = [];
  /** Instances heard from, with the ranges each has acknowledged. */
  const peers = new Map<string, NotifiedRange[]>();
  /** Notified ranges not acknowledged yet: sent once applied. */
  const unacked: NotifiedRange[] = [];
  const waiters = new Set<{ seq: number; resolve: (echoed: boolean) => void }>();
  const timeout = createLoopAwareTimeout(ECHO_TIMEOUT_MS);
  /** Whether the LISTEN connection is up: without it, nothing can come back. */
  let up = false;

  const done = (seq: number) =>
    covers(own, seq) && deps.applied(seq) && [...peers.values()].every((acked) => covers(acked, seq));
  const settle = () => {
    for (const waiter of waiters) {
      if (!done(waiter.seq)) continue;
      waiters.delete(waiter);
      waiter.resolve(true);
    }
  };

  return {
    /** This instance listens now (again): every other one learns of it. */
    listening(): void {
      up = true;
      void deps.send({ kind: 'hello', instance: self });
    },
    /** Whether changes can come back now (the LISTEN connection is up). */
    up: () => up,
    /** The LISTEN connection was lost: what was waited for cannot come back, and is answered now. */
    lost(): void {
      up = false;
      for (const waiter of waiters) waiter.resolve(false);
      waiters.clear();
    },
    /** A change's notification arrived: its range is this instance's to apply and acknowledge. */
    notified(range: NotifiedRange): void {
      remember(own, range);
      unacked.push(range);
      settle();
    },
    /** Another instance spoke (this one's own messages come back too, and are ignored). */
    heard(message: PeerMessage): void {
      if (message.instance === self) return;
      if (message.kind === 'bye') peers.delete(message.instance);
      else {
        const acked = peers.get(message.instance);
        if (!acked) {
          peers.set(message.instance, []);
          if (message.kind === 'hello') void deps.send({ kind: 'hello', instance: self });
        }
        if (message.kind === 'ack') remember(peers.get(message.instance)!, message.range);
      }
      settle();
    },
    /** After a read of the feed: the notified ranges now applied are acknowledged. */
    read(): void {
      for (let i = unacked.length - 1; i >= 0; i--) {
        const range = unacked[i]!;
        if (!deps.applied(range.first) || !deps.applied(range.last)) continue;
        unacked.splice(i, 1);
        void deps.send({ kind: 'ack', instance: self, range });
      }
      settle();
    },
    /** Resolves true once change `seq` is done everywhere this instance knows of, false after the bound. */
    wait(seq: number): Promise<boolean> {
      let waiter: { seq: number; resolve: (echoed: boolean) => void } | undefined;
      const waited = new Promise<boolean>((resolve) => {
        waiter = { seq, resolve };
        waiters.add(waiter);
        settle();
      });
      return timeout.within(waited, 'the change feed echo').catch(() => {
        waiters.delete(waiter!);
        const silent = [...peers].filter(([, acked]) => !covers(acked, seq)).map(([peer]) => peer);
        for (const peer of silent) peers.delete(peer);
        deps.log.warn(
          { event: 'changes.echo_timeout', seq, echoed: covers(own, seq), silent },
          `change ${seq} was not seen applied everywhere within ${ECHO_TIMEOUT_MS} ms: answered without it`,
        );
        return false;
      });
    },
    /** How many other instances this one waits for. */
    peers: () => peers.size,
    /** Says bye (within a second: a database that does not answer does not hold the shutdown). */
    async close(): Promise<void> {
      for (const waiter of waiters) waiter.resolve(false);
      waiters.clear();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        deps.send({ kind: 'bye', instance: self }),
        new Promise((resolve) => (timer = setTimeout(resolve, 1_000))),
      ]);
      clearTimeout(timer);
    },
  };
}

export type Echoes = ReturnType<typeof createEchoes>;
