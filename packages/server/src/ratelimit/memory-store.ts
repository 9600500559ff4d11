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

  return {
    name: 'memory',
    async consume(input) {
      sweep(input.now);
      let entry = entries.get(input.bucket);
      if (!entry) {
        entry = { windows: new Map(), ban: null, expiresAt: 0 };
        entries.set(input.bucket, entry);
      }
      const outcome = step(entry, input);
      let expiresAt = entry.ban?.until ?? 0;
      for (const window of entry.windows.values()) if (window.resetAt > expiresAt) expiresAt = window.resetAt;
      entry.expiresAt = expiresAt;
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

/** The per-request update; redis-script.ts is the same steps in Lua. */
function step(entry: Entry, input: ConsumeInput): ConsumeOutcome {
  const { now } = input;
  if (entry.ban) {
    const lifted = input.banLiftedAt !== null && entry.ban.startedAt <= input.banLiftedAt;
    if (now < entry.ban.until && !lifted)
      return { kind: 'banned', until: entry.ban.until, startedNow: false };
    entry.ban = null;
  }
  const current = input.windows.map((spec) => {
    const stored = entry.windows.get(spec.name);
    const window =
      stored && now < stored.resetAt ? stored : { count: 0, resetAt: spec.resetAtIfNew, refused: 0 };
    entry.windows.set(spec.name, window);
    return window;
  });
  let refusing = -1;
  current.forEach((window, i) => {
    const full = window.count >= input.windows[i]!.limit;
    if (full && (refusing === -1 || window.resetAt > current[refusing]!.resetAt)) refusing = i;
  });
  const refusingWindow = current[refusing];
  if (!refusingWindow) {
    for (const window of current) window.count += 1;
  } else {
    refusingWindow.refused += 1;
    if (refusingWindow.refused > input.banThreshold) {
      for (const window of current) window.refused = 0;
      entry.ban = { until: input.banUntilIfStarted, startedAt: now };
      return { kind: 'banned', until: input.banUntilIfStarted, startedNow: true };
    }
  }
  return {
    kind: 'counted',
    allowed: !refusingWindow,
    refusing,
    windows: current.map(({ count, resetAt }) => ({ count, resetAt })),
  };
}
