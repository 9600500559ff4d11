import { createHmac } from 'node:crypto';
import { ApiError } from '../../errors.ts';
import { parseInt64 } from '../../json/int64.ts';
import type { PetStatus } from '../../storage/records.ts';

/**
 * Keyset cursors: opaque base64url text naming the last id of a page and the filter it belongs to,
 * with a MAC so a tampered or foreign cursor is refused instead of silently paging elsewhere.
 * Cursors are not secrets; the MAC key only guards integrity.
 */
const MAC_KEY = 'petstore-v1-cursor';
const VERSION = 'c1';

function mac(payload: string): string {
  return createHmac('sha256', MAC_KEY).update(payload).digest('base64url').slice(0, 16);
}

/** Recently issued cursors: a page that is not cached (PostgreSQL) would otherwise pay an HMAC each time. */
const issued = new Map<string, string>();
const ISSUED_MAX = 10_000;

export function encodeCursor(afterId: bigint, status: PetStatus | undefined): string {
  const payload = `${VERSION}.${status ?? '*'}.${afterId}`;
  let cursor = issued.get(payload);
  if (cursor === undefined) {
    cursor = Buffer.from(`${payload}.${mac(payload)}`).toString('base64url');
    if (issued.size >= ISSUED_MAX) issued.clear();
    issued.set(payload, cursor);
  }
  return cursor;
}

export function decodeCursor(cursor: string, status: PetStatus | undefined): bigint {
  const invalid = (why: string) => new ApiError('invalid_cursor', `cursor ${why}`, { param: 'cursor' });
  if (cursor.length === 0 || cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw invalid('is malformed');
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) throw invalid('is malformed');
  const parts = bytes.toString('utf8').split('.');
  if (parts.length !== 4) throw invalid('is malformed');
  const [version, filter, id, signature] = parts as [string, string, string, string];
  if (version !== VERSION || signature !== mac(`${version}.${filter}.${id}`)) {
    throw invalid('is not one this service issued');
  }
  if (filter !== (status ?? '*')) {
    throw invalid('belongs to another filter: keep the status of the request that returned it');
  }
  const afterId = parseInt64(id);
  if (afterId === undefined) throw invalid('is malformed');
  return afterId;
}
