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
