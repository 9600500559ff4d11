import type { ExportSlotStore, SlotLease } from './export-slot-store.ts';

/**
 * Leases in this process's memory: the caps of one instance. Node runs each call to completion before the
 * next, so a take is atomic. A project or holder with no lease left is forgotten, so memory stays bounded
 * by the exports streaming.
 */
export function createMemorySlotStore(): ExportSlotStore {
  /** Leases by `project:<id>` and `holder:<id>`: slot → when it ends. */
  const leases = new Map<string, Map<string, number>>();
  const keysOf = (lease: SlotLease) => [`project:${lease.projectId}`, `holder:${lease.holder}`] as const;
  const held = (key: string, now: number) => {
    const slots = leases.get(key);
    if (!slots) return 0;
    for (const [slot, until] of slots) if (until <= now) slots.delete(slot);
    if (slots.size === 0) leases.delete(key);
    return slots.size;
  };
  const drop = (key: string, slot: string) => {
    const slots = leases.get(key);
    slots?.delete(slot);
    if (slots?.size === 0) leases.delete(key);
  };

  return {
    name: 'memory',
    async take(input) {
      const [project, holder] = keysOf(input);
      if (held(holder, input.now) >= input.perHolder) return { ok: false, cap: 'holder' };
      if (held(project, input.now) >= input.perProject) return { ok: false, cap: 'project' };
      for (const key of [project, holder]) {
        const slots = leases.get(key) ?? new Map<string, number>();
        slots.set(input.slot, input.expiresAt);
        leases.set(key, slots);
      }
      return { ok: true };
    },
    async renew(lease, now, expiresAt) {
      const keys = keysOf(lease);
      const live = keys.every((key) => (leases.get(key)?.get(lease.slot) ?? now) > now);
      for (const key of keys) {
        if (live) leases.get(key)!.set(lease.slot, expiresAt);
        else drop(key, lease.slot);
      }
      return live;
    },
    async release(lease) {
      for (const key of keysOf(lease)) drop(key, lease.slot);
    },
    async close() {
      leases.clear();
    },
  };
}
