/**
 * Password checks admitted a few at a time. Each scrypt call holds 128 MiB and one thread of libuv's
 * pool (four threads by default, shared with file, compression and DNS work) for about 0.3 s, so only
 * `concurrent` run at once and at most `waiting` wait; the rest are told to retry.
 *
 * The queue is fair and cannot be turned against an account's owner: waiting checks are kept in lanes
 * (one per client address for unknown devices, one per account for known devices), each lane holds at
 * most `perLane`, and lanes take turns. Known devices' lanes go first, and a known device that finds
 * the queue full takes the place of the newest check of the longest unknown lane (that one is told to
 * retry): thirty wrong passwords from thirty addresses cannot keep the owner's browser out.
 */
export interface GateTicket {
  /** `address:<ip>` for an unknown device, `account:<id>` for a known one. */
  lane: string;
  /** A known device's check: served before every unknown one. */
  priority: boolean;
}

export type GateOutcome<T> = { ran: true; value: T } | { ran: false };

export interface HashingGate {
  /** Runs `job` once its turn comes; `{ ran: false }`, without running it, when there is no room. */
  run<T>(ticket: GateTicket, job: () => Promise<T>): Promise<GateOutcome<T>>;
  /** Checks running and waiting now. */
  load(): { running: number; waiting: number };
}

export interface HashingLimits {
  /** Jobs running at once. */
  concurrent: number;
  /** Jobs waiting for a slot, all lanes together. */
  waiting: number;
  /** Jobs waiting in one lane. */
  perLane: number;
}

/** Two at once (256 MiB, two of the pool's four threads), sixteen waiting (under 3 s), two per lane. */
export const HASHING_LIMITS: HashingLimits = { concurrent: 2, waiting: 16, perLane: 2 };

interface Waiter {
  start(): void;
  refuse(): void;
}

/** Lanes of waiters taking turns: the lane served last moves to the back. */
class Lanes {
  readonly #lanes = new Map<string, Waiter[]>();
  size = 0;

  count(lane: string): number {
    return this.#lanes.get(lane)?.length ?? 0;
  }
  push(lane: string, waiter: Waiter): void {
    const queue = this.#lanes.get(lane);
    if (queue) queue.push(waiter);
    else this.#lanes.set(lane, [waiter]);
    this.size++;
  }
  /** The first waiter of the lane whose turn it is. */
  next(): Waiter | undefined {
    const first = this.#lanes.entries().next();
    if (first.done) return undefined;
    const [lane, queue] = first.value;
    const waiter = queue.shift()!;
    this.#lanes.delete(lane);
    if (queue.length > 0) this.#lanes.set(lane, queue);
    this.size--;
    return waiter;
  }
  /** Takes the newest waiter of the longest lane out of the queue. */
  evict(): Waiter | undefined {
    let longest: [string, Waiter[]] | undefined;
    for (const entry of this.#lanes) if (!longest || entry[1].length > longest[1].length) longest = entry;
    if (!longest) return undefined;
    const waiter = longest[1].pop()!;
    if (longest[1].length === 0) this.#lanes.delete(longest[0]);
    this.size--;
    return waiter;
  }
}

export function createHashingGate(limits: HashingLimits = HASHING_LIMITS): HashingGate {
  let running = 0;
  const known = new Lanes();
  const unknown = new Lanes();

  // A finished job hands its slot straight to the next in line, so no newcomer can slip in between.
  const release = () => {
    const next = known.next() ?? unknown.next();
    if (next) next.start();
    else running--;
  };

  const admit = (ticket: GateTicket): Promise<boolean> => {
    if (running < limits.concurrent) {
      running++;
      return Promise.resolve(true);
    }
    const lanes = ticket.priority ? known : unknown;
    if (lanes.count(ticket.lane) >= limits.perLane) return Promise.resolve(false);
    if (known.size + unknown.size >= limits.waiting) {
      const evicted = ticket.priority ? unknown.evict() : undefined;
      if (!evicted) return Promise.resolve(false);
      evicted.refuse();
    }
    return new Promise((resolve) =>
      lanes.push(ticket.lane, { start: () => resolve(true), refuse: () => resolve(false) }),
    );
  };

  return {
    async run(ticket, job) {
      if (!(await admit(ticket))) return { ran: false };
      try {
        return { ran: true, value: await job() };
      } finally {
        release();
      }
    },
    load: () => ({ running, waiting: known.size + unknown.size }),
  };
}
