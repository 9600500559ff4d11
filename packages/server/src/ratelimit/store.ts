/**
 * A rate-limit store performs one atomic update per request. The limiter decides what the windows
 * are (their limits and where a new one would end) and turns the outcome into a decision; the store
 * only rolls expired windows, counts, and starts, drops or reports bans. Every implementation must
 * pass `runLimiterContract` (packages/server/test/ratelimit-contract.ts).
 */
export interface WindowSpec {
  /** Distinguishes the subject's windows in storage, e.g. `minute`, `day`. */
  name: string;
  limit: number;
  /** When a window opened by this request would reset (epoch ms, after `now`). */
  resetAtIfNew: number;
}

/**
 * Windows a subject shares with the other subjects of its group (an API key's project): checked and
 * counted with the subject's own (if it has any) in the same atomic update, so the group's limits hold
 * for all its subjects together. Bans are the subject's alone, earned by refusals of its own windows:
 * a refusal by a group window (which the group's other subjects may have filled) counts towards none.
 */
export interface GroupWindows {
  bucket: string;
  windows: readonly WindowSpec[];
}

export interface ConsumeInput {
  bucket: string;
  now: number;
  /** The subject's own windows: may be empty when it has a group. */
  windows: readonly WindowSpec[];
  /** The group whose windows hold too; a store keeps the subject's state beside the group's. */
  group?: GroupWindows;
  /** A stored ban that started at or before this instant is dropped. */
  banLiftedAt: number | null;
  /** More refusals than this within the refusing window start a ban. */
  banThreshold: number;
  /** When a ban started by this request ends. */
  banUntilIfStarted: number;
  /**
   * While a timed-out call of this bucket may still be counted by the primary store, refuse (default)
   * rather than ask the fallback. Only the failover store reads it.
   */
  refuseInDoubt?: boolean;
}

export interface WindowState {
  /** Requests allowed in the window, including this one when allowed. */
  count: number;
  resetAt: number;
}

export type ConsumeOutcome =
  | { kind: 'banned'; until: number; startedNow: boolean }
  | {
      kind: 'counted';
      allowed: boolean;
      /**
       * Index of the window that refused (the exhausted one resetting last) in `windows`; -1 when
       * allowed.
       */
      refusing: number;
      /** In the order of `ConsumeInput.windows`, then the group's windows. */
      windows: WindowState[];
    };

export interface RateLimitStore {
  readonly name: string;
  consume(input: ConsumeInput): Promise<ConsumeOutcome>;
  /**
   * The named windows as they stand, without counting anything: `count` 0 and `resetAt` 0 for a window
   * that has not started or has expired. For showing usage; not atomic across windows. `group` names
   * the group a subject's state is kept beside (as in `ConsumeInput.group`).
   */
  peek(bucket: string, now: number, names: readonly string[], group?: string): Promise<WindowState[]>;
  /** Drops the bucket's ban, if any (`group` as in `peek`). */
  unban(bucket: string, group?: string): Promise<void>;
  close(): Promise<void>;
}
