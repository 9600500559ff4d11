import type { Row } from './rows.ts';

/**
 * The little that repositories written once for both dialects need: statements with `$1, $2, …`
 * placeholders (SQLite reads them as `?1, ?2, …`), rows back, and how many rows a write changed.
 * Failures arrive already mapped (StorageUnavailableError for "cannot serve now").
 */
export interface SqlExecutor {
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a write; resolves with how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** `$1` → `?1`: the same statement text for node:sqlite. */
export function sqlitePlaceholders(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}
