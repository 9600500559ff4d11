import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import Database from 'better-sqlite3';

/**
 * What both peers share, as one team's small `db.ts` would: the schema (created at start-up if
 * missing), the durability settings, key hashing and the signed paging cursor. The peers themselves
 * are in fastify-peer.ts and express-peer.ts.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS pets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  category_id INTEGER NOT NULL,
  status TEXT CHECK (status IN ('available', 'pending', 'sold'))
);
CREATE INDEX IF NOT EXISTS pets_by_status ON pets (status, id);
CREATE TABLE IF NOT EXISTS api_keys (
  key_hash TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  per_minute INTEGER NOT NULL,
  revoked_at INTEGER
) WITHOUT ROWID;
`;

export const STATUSES = ['available', 'pending', 'sold'] as const;
export type Status = (typeof STATUSES)[number];

export interface PetRow {
  id: number;
  name: string;
  categoryId: number;
  status: Status | null;
}

/** WAL with synchronous=FULL: a 201 is sent only after the commit reached the disk (fsync). */
export function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  return db;
}

/** Keys are stored as their SHA-256 (hex); the key itself is never kept. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The pet as the contract writes it: `status` omitted, never null, when there is none. */
export function toPet(row: PetRow): Record<string, unknown> {
  return row.status === null
    ? { id: row.id, name: row.name, categoryId: row.categoryId }
    : { id: row.id, name: row.name, categoryId: row.categoryId, status: row.status };
}

const MAC_BYTES = 12;

/** An opaque cursor: the last id and the status filter it was issued for, with an HMAC over both. */
export function signCursor(secret: string, lastId: number, status: string | undefined): string {
  const payload = Buffer.from(`${lastId}:${status ?? ''}`);
  const mac = createHmac('sha256', secret).update(payload).digest().subarray(0, MAC_BYTES);
  return Buffer.concat([mac, payload]).toString('base64url');
}

/** The last id of a cursor issued for `status`, or undefined when it was altered or is for another filter. */
export function readCursor(secret: string, cursor: string, status: string | undefined): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length <= MAC_BYTES) return undefined;
  const payload = raw.subarray(MAC_BYTES);
  const expected = createHmac('sha256', secret).update(payload).digest().subarray(0, MAC_BYTES);
  if (!timingSafeEqual(expected, raw.subarray(0, MAC_BYTES))) return undefined;
  const [id, issuedFor] = payload.toString().split(':');
  if (issuedFor !== (status ?? '') || !/^[1-9][0-9]{0,15}$/.test(id ?? '')) return undefined;
  return Number(id);
}

/** getPet is deprecated in the contract: every answer of it carries these (RFC 9745, RFC 8594). */
export const GET_PET_DEPRECATION = {
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</docs#tag/Pets/operation/getPet>; rel="deprecation"; type="text/html", </v1/pets>; rel="successor-version"',
};

/** A canonical int64 decimal (no leading zeros, no plus sign), as the contract asks of petId. */
export function parsePetId(text: string): bigint | undefined {
  if (!/^(0|-?[1-9][0-9]{0,18})$/.test(text)) return undefined;
  const id = BigInt(text);
  return id >= -(2n ** 63n) && id < 2n ** 63n ? id : undefined;
}
