/**
 * Where the leases of exports streaming are kept: this process's memory, or a Redis every instance shares
 * (the caps then hold for the deployment). A lease is held until it expires unless renewed, so the slots
 * of an instance that crashed free themselves. Every implementation must pass `runExportSlotContract`
 * (packages/server/test/export-slots-contract.ts).
 */
export interface SlotLease {
  /** The lease's own id (one per export). */
  slot: string;
  projectId: string;
  /** Who exports: a token or a session, by id. */
  holder: string;
}

export interface TakeInput extends SlotLease {
  now: number;
  /** When the lease ends unless renewed (epoch ms, after `now`). */
  expiresAt: number;
  perProject: number;
  perHolder: number;
}

export type TakeOutcome = { ok: true } | { ok: false; cap: 'project' | 'holder' };

export interface ExportSlotStore {
  readonly name: string;
  /**
   * One atomic step: drops the leases expired at `now`, refuses when the holder's leases (first) or the
   * project's are at their cap, else adds this lease until `expiresAt`.
   */
  take(input: TakeInput): Promise<TakeOutcome>;
  /** Moves a lease's end to `expiresAt`; false when it is no longer held (released, or expired by `now`). */
  renew(lease: SlotLease, now: number, expiresAt: number): Promise<boolean>;
  /** Ends a lease; ending one not held does nothing. */
  release(lease: SlotLease): Promise<void>;
  close(): Promise<void>;
}
