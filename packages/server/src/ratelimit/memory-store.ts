import type { ConsumeInput, ConsumeOutcome, RateLimitStore } from './store.ts';

interface StoredWindow {
  count: number;
  resetAt: number;
  refused: number;
}

interface Entry {
  windows: Map<string, StoredWindow>;
  ban: { until: number; startedAt: number } | null;
  /** When nothing in the entry matters any more; the sweep removes it from then on. */
  expiresAt: number;
}

/** The entry of a subject without windows or a ban: `step` reads it and never writes it. */
const NOTHING_HELD: Entry = Object.freeze({ windows: new Map(), ban: null, expiresAt: 0 }) as Entry;

export interface MemoryStore extends RateLimitStore {
  /** Number of subjects held (for tests and metrics). */
  size(): number;
}

/**
 * One process's rate-limit state in a Map. Node runs each `consume` to completion before the next,
 * so the update is atomic. Expired entries are swept lazily, at most once per `sweepIntervalMs` of
 * the callers' clock, so no timer needs stopping and memory stays bounded by the active subjects.
 */
export function createMemoryStore(options: { sweepIntervalMs?: number } = {}): MemoryStore {
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const entries = new Map<string, Entry>();
  let nextSweepAt = Number.NEGATIVE_INFINITY;

  function sweep(now: number): void {
    if (now < nextSweepAt) return;
    nextSweepAt = now + sweepIntervalMs;
    for (const [bucket, entry] of entries) {
      if (entry.expiresAt <= now) entries.delete(bucket);
    }
  }

  const entryOf = (bucket: string): Entry => {
    let entry = entries.get(bucket);
    if (!entry) {
      entry = { windows: new Map(), ban: null, expiresAt: 0 };
      entries.set(bucket, entry);
    }
    return entry;
  };
  const settleExpiry = (entry: Entry) => {
    let expiresAt = entry.ban?.until ?? 0;
    for (const window of entry.windows.values()) if (window.resetAt > expiresAt) expiresAt = window.resetAt;
    entry.expiresAt = expiresAt;
  };

  return {
    name: 'memory',
    async consume(input) {
      sweep(input.now);
      // A subject without windows of its own (a project key held to its project's limits alone) is
      // never counted or banned here: unless it holds a ban from before, it needs no entry, and 50,000
      // such keys in use hold none.
      const entry =
        input.windows.length === 0 ? (entries.get(input.bucket) ?? NOTHING_HELD) : entryOf(input.bucket);
      const group = input.group && entryOf(input.group.bucket);
      const outcome = step(entry, group, input);
      if (entry !== NOTHING_HELD) settleExpiry(entry);
      if (group) settleExpiry(group);
      return outcome;
    },
    async peek(bucket, now, names) {
      const windows = entries.get(bucket)?.windows;
      return names.map((name) => {
        const window = windows?.get(name);
        return window && now < window.resetAt
          ? { count: window.count, resetAt: window.resetAt }
          : { count: 0, resetAt: 0 };
      });
    },
    async unban(bucket) {
      const entry = entries.get(bucket);
      if (entry) entry.ban = null;
    },
    async close() {
      entries.clear();
    },
    size: () => entries.size,
  };
}

/** A subject's (or group's) windows for this request: the stored ones still running, else new ones. */
function rolled(entry: Entry, specs: ConsumeInput['windows'], now: number): StoredWindow[] {
  return specs.map((spec) => {
    const stored = entry.windows.get(spec.name);
    const window =
      stored && now < stored.resetAt ? stored : { count: 0, resetAt: spec.resetAtIfNew, refused: 0 };
    entry.windows.set(spec.name, window);
    return window;
  });
}

/** The per-request update; redis-script.ts is the same steps in Lua. */
function step(entry: Entry, group: Entry | undefined, input: ConsumeInput): ConsumeOutcome {
  const { now } = input;
  if (entry.ban) {
    const lifted = input.banLiftedAt !== null && entry.ban.startedAt <= input.banLiftedAt;
    if (now < entry.ban.until && !lifted)
      return { kind: 'banned', until: entry.ban.until, startedNow: false };
    entry.ban = null;
  }
  const own = rolled(entry, input.windows, now);
  if (!group || !input.group) return decide(entry, own, own, input.windows, input);
  const shared = rolled(group, input.group.windows, now);
  // A group window is filled by all the group's subjects: its refusals ban none of them.
  const counters = [...own, ...shared.map(() => null)];
  return decide(entry, [...own, ...shared], counters, [...input.windows, ...input.group.windows], input);
}

/**
 * Allows the request when every window has room, counting it in each; else counts a refusal where the
 * refusing window's refusals are kept (`counters`, aligned with `current`; null where refusals do not
 * count towards a ban), starting a ban past the threshold.
 */
function decide(
  entry: Entry,
  current: StoredWindow[],
  counters: ({ refused: number } | null)[],
  specs: ConsumeInput['windows'],
  input: ConsumeInput,
): ConsumeOutcome {
  let refusing = -1;
  current.forEach((window, i) => {
    const full = window.count >= specs[i]!.limit;
    if (full && (refusing === -1 || window.resetAt > current[refusing]!.resetAt)) refusing = i;
  });
  if (refusing === -1) {
    for (const window of current) window.count += 1;
  } else {
    const counted = counters[refusing];
    if (counted) counted.refused += 1;
    if (counted && counted.refused > input.banThreshold) {
      for (const counter of counters) if (counter) counter.refused = 0;
      entry.ban = { until: input.banUntilIfStarted, startedAt: input.now };
      return { kind: 'banned', until: input.banUntilIfStarted, startedNow: true };
    }
  }
  return {
    kind: 'counted',
    allowed: refusing === -1,
    refusing,
    windows: current.map(({ count, resetAt }) => ({ count, resetAt })),
  };
}
