import assert from 'node:assert/strict';
import type { ReversibleStorage } from '../src/storage/migrations.ts';

/**
 * Undoes the newest migrations down to and including `name` (newer ones first, whatever they are), so
 * a test of one migration does not depend on which migrations came after it; returns what was undone.
 */
export async function undoThrough(storage: ReversibleStorage, name: string): Promise<string[]> {
  const undone: string[] = [];
  for (;;) {
    const last = await storage.rollback();
    assert.ok(last !== undefined, `${name} was never applied`);
    undone.push(last);
    if (last === name) return undone;
  }
}
