/**
 * A purge's DELETE: everything matching `where`, or with `limit` at most that many rows (picked by their
 * key, which may span columns), so the maintenance deletes in slices the event loop turns between.
 */
export const deleteWhere = (table: string, key: string, where: string, limit?: number): string =>
  limit === undefined
    ? `DELETE FROM ${table} WHERE ${where}`
    : `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${Math.trunc(limit)})`;
