import { randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../../time/clock.ts';
import { createLoopAwareTimeout } from '../../time/loop-aware-timeout.ts';
import type { ExportSlotStore, SlotLease, TakeInput } from './export-slot-store.ts';
import { createMemorySlotStore } from './export-slots-memory.ts';

/**
 * Exports of one project's request log streaming at once (the management API's NDJSON and the
 * dashboard's CSV and NDJSON together), across the deployment when its instances share a Redis, else on
 * each instance: each one holds a page of rows and the storage's turns while it streams, so one
 * project's exports never take more than their share.
 */
export const EXPORTS_PER_PROJECT = 2;
/** Exports of one access token, or one dashboard session, streaming at once (counted as above). */
export const EXPORTS_PER_HOLDER = 1;
/** The Retry-After of an export refused over its caps, in seconds. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;
/** How long a slot is held unless renewed: the slots of an instance that crashed are free after this. */
export const EXPORT_LEASE_MS = 30_000;
/** How often a streaming export renews its slot's lease. */
export const EXPORT_RENEW_MS = 10_000;

/** What an export may start with: its project, and who asks (a token or a session, by id). */
export interface ExportHolder {
  projectId: string;
  holder: string;
}

export type SlotOutcome = { ok: true; release: () => void } | { ok: false; cap: 'project' | 'holder' };

export interface ExportSlots {
  /**
   * A slot for one export, or which cap refused it. `release` frees the slot; calling it again does
   * nothing, so every way an export ends (finished, failed, the client gone) may call it.
   */
  take(asker: ExportHolder): Promise<SlotOutcome>;
  /** Exports streaming now on this instance (the metrics and tests read it). */
  readonly streaming: number;
  /** Stops renewing; the leases still held end with their expiry. */
  close(): Promise<void>;
}

export interface ExportSlotsOptions {
  /** The deployment's leases (Redis); without one, this instance's caps are the only ones. */
  shared?: ExportSlotStore;
  clock?: Clock;
  limits?: { perProject?: number; perHolder?: number };
  leaseMs?: number;
  renewEveryMs?: number;
  /** A shared store's call unanswered for this long has failed (default 1 s). */
  timeoutMs?: number;
  /** While the shared store fails, how often one take tries it again (default 5 s). */
  retryIntervalMs?: number;
  onStoreError?: (err: unknown) => void;
  onStoreRecovered?: () => void;
}

/**
 * The caps of exports streaming at once. Every export takes a slot in this instance's memory (the caps
 * hold per instance whatever happens) and, when a shared store is given, one in it too (the caps hold
 * per deployment). Both are leases renewed while the export streams.
 *
 * The store-failure policy is the rate limiter's (ratelimit/failover.ts): an export never fails or
 * waits because the shared store does. A failed or unanswered take is reported once and the export
 * runs on this instance's caps alone; from then on one take per `retryIntervalMs` tries the store again,
 * and the first answer is reported once. A take that timed out is released once it is answered, and
 * would expire with its lease anyway.
 */
export function createExportSlots(options: ExportSlotsOptions = {}): ExportSlots {
  const { shared } = options;
  const clock = options.clock ?? systemClock;
  const perProject = options.limits?.perProject ?? EXPORTS_PER_PROJECT;
  const perHolder = options.limits?.perHolder ?? EXPORTS_PER_HOLDER;
  const leaseMs = options.leaseMs ?? EXPORT_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? EXPORT_RENEW_MS;
  const retryIntervalMs = options.retryIntervalMs ?? 5_000;
  const timeout = createLoopAwareTimeout(options.timeoutMs ?? 1_000);
  const local = createMemorySlotStore();
  const timers = new Set<NodeJS.Timeout>();
  let streaming = 0;
  let degraded = false;
  let nextProbeAt = 0;

  const failed = (err: unknown) => {
    nextProbeAt = clock.now() + retryIntervalMs;
    if (degraded) return;
    degraded = true;
    options.onStoreError?.(err);
  };
  const answered = () => {
    if (!degraded) return;
    degraded = false;
    options.onStoreRecovered?.();
  };
  /** Takes the shared slot: its outcome, or null when the store did not answer (local caps only). */
  const takeShared = async (store: ExportSlotStore, input: TakeInput) => {
    if (degraded && clock.now() < nextProbeAt) return null;
    const call = store.take(input);
    try {
      const outcome = await timeout.within(call, 'export slot store did not answer');
      answered();
      return outcome;
    } catch (err) {
      failed(err);
      call.then((late) => (late.ok ? store.release(input) : undefined)).catch(() => {});
      return null;
    }
  };

  const hold = (lease: SlotLease, stores: ExportSlotStore[]) => {
    streaming++;
    const renew = async () => {
      const now = clock.now();
      await Promise.all(
        stores.map((store) =>
          store
            .renew(lease, now, now + leaseMs)
            .catch((err: unknown) => (store === shared ? failed(err) : undefined)),
        ),
      );
    };
    const timer = setInterval(() => void renew(), renewEveryMs);
    timer.unref();
    timers.add(timer);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      streaming--;
      clearInterval(timer);
      timers.delete(timer);
      for (const store of stores) store.release(lease).catch(() => {});
    };
  };

  return {
    get streaming() {
      return streaming;
    },
    async take(asker) {
      const now = clock.now();
      const input = { ...asker, slot: randomUUID(), now, expiresAt: now + leaseMs, perProject, perHolder };
      const mine = await local.take(input);
      if (!mine.ok || !shared) return mine.ok ? { ok: true, release: hold(input, [local]) } : mine;
      const theirs = await takeShared(shared, input);
      if (theirs && !theirs.ok) {
        await local.release(input);
        return theirs;
      }
      return { ok: true, release: hold(input, theirs ? [local, shared] : [local]) };
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      await local.close();
    },
  };
}
