import { setImmediate as nextTurn } from 'node:timers/promises';
import { BATCH_SLOTS, decodeSlots, type EncodedBatch, encodeSlots } from './request-log-batch.ts';

/** What purging a batch leaves: the requests it removed, and the batch re-encoded, or undefined if empty. */
export interface PurgedBatch {
  /** Row id and request id of each removed request. */
  removed: { rowId: number; requestId: string }[];
  kept: EncodedBatch | undefined;
}

/** Empties the slots of a stored batch older than `cutoff`; the newer requests keep their places (and ids). */
export function purgeSlots(batchId: number, rows: string, cutoff: number): PurgedBatch {
  const base = batchId * BATCH_SLOTS;
  const slots = decodeSlots(rows);
  const removed: PurgedBatch['removed'] = [];
  slots.forEach((slot, position) => {
    if (!slot || slot[0] >= cutoff) return;
    removed.push({ rowId: base + position, requestId: slot[1] });
    slots[position] = null;
  });
  return { removed, kept: slots.some((slot) => slot !== null) ? encodeSlots(slots) : undefined };
}

/** Batches purged at a time, in one transaction, the event loop free between chunks. */
export const PURGE_CHUNK_BATCHES = 20;

/** A stored batch as a purge reads it. */
export interface StoredBatch {
  id: unknown;
  rows: string;
}

/**
 * Empties a project's slots older than `cutoff`, chunk by chunk: `chunk` reads up to PURGE_CHUNK_BATCHES
 * of its batches holding such requests (first_at < cutoff), `store` writes what each became in one
 * transaction. Resolves with how many requests went.
 */
export async function purgeBatches(
  cutoff: number,
  chunk: () => Promise<StoredBatch[]>,
  store: (purged: (PurgedBatch & { id: unknown })[]) => Promise<void>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const batches = await chunk();
    const purged = batches.map((batch) => ({
      id: batch.id,
      ...purgeSlots(Number(batch.id), batch.rows, cutoff),
    }));
    await store(purged);
    for (const batch of purged) removed += batch.removed.length;
    if (batches.length < PURGE_CHUNK_BATCHES) return removed;
    await nextTurn();
  }
}
