import type { Clock } from '../time/clock.ts';
import { createFailoverStore } from './failover.ts';
import {
  closestToExhaustion,
  type Policy,
  type PolicySet,
  policySet,
  type ReportedWindow,
  rateLimitHeaders,
  secondsUntil,
} from './headers.ts';
import { createMemoryStore } from './memory-store.ts';
import type { ConsumeOutcome, RateLimitStore, WindowSpec } from './store.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface LimitSubject {
  /** Whose quota: e.g. `key:<id>` for an API key, `ip:<address>` for requests without one. */
  bucket: string;
  perMinute: number;
  perDay: number;
  /** When an operator last lifted the subject's ban; a stored ban that started by then is dropped. */
  banLiftedAt?: number | null;
  /** A ban recorded elsewhere (the key's record); refused without consulting the store until then. */
  bannedUntil?: number | null;
  /**
   * When a store call of this subject timed out and may still be counted: `refuse` (default) its checks
   * on this instance until it is answered (at most 1 s), or let the fallback answer them (`fallback`:
   * for budgets that guard availability, such as health probes, where a refusal would do harm).
   */
  inDoubt?: 'refuse' | 'fallback';
  /**
   * A group whose limits hold for all its subjects together (an API key's project), checked with the
   * subject's own in one atomic step. The subject's `perMinute`/`perDay` may then be `Infinity`: no
   * limit of its own beyond the group's. Bans stay the subject's.
   */
  group?: GroupLimits;
}

export interface GroupLimits {
  /** e.g. `project:<id>`. */
  bucket: string;
  perMinute: number;
  perDay: number;
  /**
   * How the headers name the subject's own windows beside the group's `minute` and `day`:
   * `<ownPrefix>minute`, `<ownPrefix>day` (default `key-`: a project key's own limits).
   */
  ownPrefix?: string;
}

export interface RateLimitDecision {
  allowed: boolean;
  reason?: 'rate_limited' | 'temporarily_banned';
  retryAfterSeconds?: number;
  /** X-RateLimit-*, RateLimit-Policy, RateLimit, and Retry-After when refused. */
  headers: Record<string, string>;
  /** Set only on the request that started a ban, so the caller can record it once. */
  bannedNow?: { until: number };
}

/** One window's standing: requests used of the limit, and when it resets (0 when it has not started). */
export interface WindowUsage {
  used: number;
  limit: number;
  resetAt: number;
}

export interface RateLimiter {
  check(subject: LimitSubject): Promise<RateLimitDecision>;
  /** How much of each window a subject has used, without counting a request (for the dashboard). */
  usage(
    subject: Pick<LimitSubject, 'bucket' | 'perMinute' | 'perDay' | 'group'>,
  ): Promise<{ minute: WindowUsage; day: WindowUsage }>;
  /**
   * Drops a bucket's ban in the store (and the fallback); rejects when the store cannot be reached.
   * `group` is the subject's group bucket, when it has one.
   */
  unban(bucket: string, group?: string): Promise<void>;
  /** Which store answers checks, and whether the fallback is answering for it now. */
  status(): { store: string; degraded: boolean };
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  store: RateLimitStore;
  clock: Clock;
  /** A ban starts when a subject's refusals within one window exceed this (default 30). */
  banThreshold?: number;
  banDurationMs?: number;
  /** Answers while `store` fails; default: a new memory store. */
  fallback?: RateLimitStore;
  /** Called once when the store starts failing (not on every failed request). */
  onStoreError?: (err: unknown) => void;
  /** Called once when the store answers again. */
  onStoreRecovered?: () => void;
  storeTimeoutMs?: number;
  storeRetryIntervalMs?: number;
}

/**
 * Two windows per subject: a minute window anchored at the first request after the previous one
 * expired, and a day window aligned to UTC days. A request is allowed when both have room and then
 * uses one unit of each; a refused request uses none.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { clock } = options;
  const banThreshold = options.banThreshold ?? 30;
  const banDurationMs = options.banDurationMs ?? 15 * MINUTE_MS;
  if (!Number.isInteger(banThreshold) || banThreshold < 0)
    throw new Error('banThreshold must be an integer >= 0');
  if (!(banDurationMs > 0)) throw new Error('banDurationMs must be > 0');
  const store = createFailoverStore({
    primary: options.store,
    fallback: options.fallback ?? createMemoryStore(),
    clock,
    timeoutMs: options.storeTimeoutMs ?? 250,
    retryIntervalMs: options.storeRetryIntervalMs ?? 1_000,
    onStoreError:
      options.onStoreError ??
      ((err) => console.warn('rate-limit store failed; limiting from the in-process fallback:', err)),
    onStoreRecovered: options.onStoreRecovered ?? (() => {}),
  });

  // A subject's layout by its limits; a subject in a group (a project key's, built once per key record)
  // also by identity, sparing the text of four limits on every request.
  const bySubject = new WeakMap<LimitSubject, Layout>();
  const byLimits = new Map<string, Layout>();
  const layoutOf = (subject: LimitSubject): Layout => {
    let layout = bySubject.get(subject);
    if (layout) return layout;
    const { group } = subject;
    const key = `${subject.perMinute}/${subject.perDay}/${group ? `${group.perMinute}/${group.perDay}/${group.ownPrefix ?? ''}` : ''}`;
    layout = byLimits.get(key);
    if (!layout) {
      if (byLimits.size >= 10_000) byLimits.clear();
      layout = windowLayout(subject);
      byLimits.set(key, layout);
    }
    if (group) bySubject.set(subject, layout);
    return layout;
  };
  /** The windows of finite limits: a subject in a group may have none of its own. */
  const windowsOf = (perMinute: number, perDay: number, now: number): WindowSpec[] => {
    const windows: WindowSpec[] = [];
    if (Number.isFinite(perMinute))
      windows.push({ name: 'minute', limit: perMinute, resetAtIfNew: now + MINUTE_MS });
    if (Number.isFinite(perDay)) {
      windows.push({ name: 'day', limit: perDay, resetAtIfNew: (Math.floor(now / DAY_MS) + 1) * DAY_MS });
    }
    return windows;
  };

  return {
    async check(subject) {
      const now = clock.now();
      const layout = layoutOf(subject);
      if (subject.bannedUntil != null && now < subject.bannedUntil) {
        return banned(layout.policies, subject.bannedUntil, now, false);
      }
      const { group } = subject;
      const outcome = await store.consume({
        bucket: subject.bucket,
        now,
        windows: windowsOf(subject.perMinute, subject.perDay, now),
        ...(group && {
          group: { bucket: group.bucket, windows: windowsOf(group.perMinute, group.perDay, now) },
        }),
        banLiftedAt: subject.banLiftedAt ?? null,
        banThreshold,
        banUntilIfStarted: now + banDurationMs,
        refuseInDoubt: subject.inDoubt !== 'fallback',
      });
      if (outcome.kind === 'banned') return banned(layout.policies, outcome.until, now, outcome.startedNow);
      return counted(layout, outcome, now);
    },
    async usage({ bucket, perMinute, perDay, group }) {
      const [minute, day] = await store.peek(bucket, clock.now(), ['minute', 'day'], group?.bucket);
      return {
        minute: { used: minute!.count, limit: perMinute, resetAt: minute!.resetAt },
        day: { used: day!.count, limit: perDay, resetAt: day!.resetAt },
      };
    },
    unban: (bucket, group) => store.unban(bucket, group),
    status: () => ({ store: store.name, degraded: store.degraded() }),
    close: () => store.close(),
  };
}

/**
 * The policies a subject's responses report, and which of them each window of the store's outcome
 * (the subject's finite ones, then its group's) stands for. The group's windows are `minute` and `day`
 * (a project key's plan); the subject's own limits beside a group are `key-minute` and `key-day` (or
 * the group's `ownPrefix`), and exist only when set.
 */
interface Layout {
  policies: PolicySet;
  slots: Policy[];
}

function windowLayout(subject: LimitSubject): Layout {
  const period = (name: string, limit: number, seconds: number): Policy | null =>
    Number.isFinite(limit) ? { name, limit, windowSeconds: seconds } : null;
  const own = (prefix: string) => [
    period(`${prefix}minute`, subject.perMinute, MINUTE_MS / 1_000),
    period(`${prefix}day`, subject.perDay, DAY_MS / 1_000),
  ];
  const { group } = subject;
  if (!group) {
    const slots = own('').filter((p) => p !== null);
    return { policies: policySet(slots), slots };
  }
  const groupSlots = [
    period('minute', group.perMinute, MINUTE_MS / 1_000)!,
    period('day', group.perDay, DAY_MS / 1_000)!,
  ];
  const ownSlots = own(group.ownPrefix ?? 'key-').filter((p) => p !== null);
  return { policies: policySet([...groupSlots, ...ownSlots]), slots: [...ownSlots, ...groupSlots] };
}

function counted(
  layout: Layout,
  outcome: Extract<ConsumeOutcome, { kind: 'counted' }>,
  now: number,
): RateLimitDecision {
  const windows: ReportedWindow[] = outcome.windows.map((w, i) => {
    const { name, limit } = layout.slots[i]!;
    return { name, limit, remaining: Math.max(0, limit - w.count), resetAt: w.resetAt };
  });
  const { policies } = layout;
  if (outcome.allowed) {
    return { allowed: true, headers: rateLimitHeaders(policies, closestToExhaustion(windows), now) };
  }
  const refusing = { ...windows[outcome.refusing]!, remaining: 0 };
  const retryAfterSeconds = secondsUntil(refusing.resetAt, now);
  return {
    allowed: false,
    reason: 'rate_limited',
    retryAfterSeconds,
    headers: rateLimitHeaders(policies, refusing, now, retryAfterSeconds),
  };
}

/** A ban is reported against the minute policy, with nothing remaining until the ban ends. */
function banned(policies: PolicySet, until: number, now: number, startedNow: boolean): RateLimitDecision {
  const { name, limit } = policies.policies[0]!;
  const retryAfterSeconds = secondsUntil(until, now);
  const decision: RateLimitDecision = {
    allowed: false,
    reason: 'temporarily_banned',
    retryAfterSeconds,
    headers: rateLimitHeaders(
      policies,
      { name, limit, remaining: 0, resetAt: until },
      now,
      retryAfterSeconds,
    ),
  };
  if (startedNow) decision.bannedNow = { until };
  return decision;
}
