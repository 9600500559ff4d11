/** An instant as the management API writes it: ISO 8601 in UTC. */
export const iso = (at: number): string => new Date(at).toISOString();
export const isoOrNull = (at: number | null | undefined): string | null =>
  at === null || at === undefined ? null : iso(at);
