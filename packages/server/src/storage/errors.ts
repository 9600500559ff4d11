/**
 * The database cannot serve the request right now (unreachable, locked by another writer, shutting
 * down, out of disk). Callers answer 503 and may retry; nothing of the failed operation was committed.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A write refused by a foreign key (PostgreSQL SQLSTATE 23503, SQLite SQLITE_CONSTRAINT_FOREIGNKEY). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === '23503' || errcode === 787;
}
