import { REQUEST_LOG_RETENTION_DAYS } from './request-log-expiry.ts';
import {
  type LoggedRequest,
  type RequestFields,
  type RequestLogQuery,
  requestFields,
  type StatusFilter,
  type StoredRequest,
  statusMatcher,
} from './request-log-records.ts';

/**
 * How both databases keep the request log: one row per stored batch of one project's requests of one UTC
 * day, the requests as a JSON array, with a summary the listings filter batches by before they decode
 * any. A request's id is its batch's id × BATCH_SLOTS + its position: ids grow with every write, and
 * name a request for good.
 */
export const BATCH_SLOTS = 256;

export const DAY_MS = 86_400_000;

/** One request as stored: its fields without `projectId` (requestFields), or null once purged. */
type StoredRow = RequestFields;

export type BatchSlot = StoredRow | null;

export interface EncodedBatch {
  /** How many slots hold a request (not purged). */
  requests: number;
  firstAt: number;
  lastAt: number;
  /** The range of the times in the batch's UUIDv7 request ids; null when it has none. */
  idMsMin: number | null;
  idMsMax: number | null;
  /** Positions whose request id is not a UUIDv7: found through the request-id table instead. */
  otherIds: number[];
  /**
   * Every distinct `|key id|operation|status|` of the batch, comma-separated: a LIKE pattern
   * (combinationPattern) tells, from these alone, whether the batch holds a request matching a query's
   * key, operation and status filters together.
   */
  combinations: string;
  rows: string;
}

const CLASS_PATTERNS: Record<Exclude<StatusFilter, number>, string> = {
  '2xx': '2__',
  '4xx': '4__',
  '429': '429',
  '5xx': '5__',
};

const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The LIKE pattern (escaped with `\`) of the batches that may hold a request matching the query's key,
 * operation and status together, or undefined when it has none of those filters. Never misses a batch
 * that holds one; may take one that does not (LIKE ignores ASCII case), whose requests are then filtered.
 */
export function combinationPattern(query: RequestLogQuery): string | undefined {
  if (query.keyId === undefined && query.operation === undefined && query.status === undefined)
    return undefined;
  const key = query.keyId === undefined ? '%' : likeLiteral(query.keyId);
  const operation = query.operation === undefined ? '%' : likeLiteral(query.operation);
  const status =
    query.status === undefined
      ? '%'
      : typeof query.status === 'number'
        ? String(query.status)
        : CLASS_PATTERNS[query.status];
  return `%|${key}|${operation}|${status}|%`;
}

/** A hexadecimal digit's value by its character code (either case), -1 for any other character. */
const hexDigit = (code: number): number =>
  code >= 48 && code <= 57
    ? code - 48
    : code >= 97 && code <= 102
      ? code - 87
      : code >= 65 && code <= 70
        ? code - 55
        : -1;

const HYPHEN = 45;
const SEVEN = 55;

/**
 * The Unix time in ms a UUIDv7 request id carries (http/request-ids.ts makes them), else undefined.
 * A batch keeps the range of these times, so a search by such an id reads only the batches whose range
 * holds its time, with no index entry per request. Only the shape that places the time is checked:
 * writes and searches read an id's time with this same function, so an id that merely looks like a
 * UUIDv7 is still found, in a batch whose range it widens.
 */
export function uuidV7Ms(requestId: string): number | undefined {
  if (
    requestId.length !== 36 ||
    requestId.charCodeAt(8) !== HYPHEN ||
    requestId.charCodeAt(13) !== HYPHEN ||
    requestId.charCodeAt(14) !== SEVEN
  )
    return undefined;
  let ms = 0;
  for (let i = 0; i < 13; i++) {
    if (i === 8) continue;
    const digit = hexDigit(requestId.charCodeAt(i));
    if (digit < 0) return parsedMs(requestId);
    ms = ms * 16 + digit;
  }
  return ms;
}

/** Where each character of a UUIDv7 prefix may be a hexadecimal digit (x), a hyphen or the version. */
const UUID_V7_SHAPE = 'xxxxxxxx-xxxx-7xxx-xxxx-xxxxxxxxxxxx';

/**
 * The inclusive range of the times (epoch ms) of the UUIDv7 ids starting with `prefix` (8 to 36
 * characters, lower case), or undefined when no UUIDv7 starts so. Eight characters span about 65 s.
 */
export function uuidV7PrefixRange(prefix: string): [number, number] | undefined {
  if (prefix.length < 8 || prefix.length > UUID_V7_SHAPE.length) return undefined;
  for (let i = 0; i < prefix.length; i++) {
    const shape = UUID_V7_SHAPE[i]!;
    const char = prefix[i]!;
    if (shape === 'x' ? !/[0-9a-f]/.test(char) : char !== shape) return undefined;
  }
  const digits = prefix.slice(0, 13).replace('-', '');
  const missing = 12 - digits.length;
  const low = Number.parseInt(digits, 16) * 16 ** missing;
  return [low, low + 16 ** missing - 1];
}

/**
 * The first reading of an id's time, kept for ids whose first twelve digits are not all hexadecimal:
 * batches stored by it hold their time ranges, which searches must read the same way.
 */
function parsedMs(requestId: string): number | undefined {
  const ms =
    Number.parseInt(requestId.slice(0, 8), 16) * 0x10000 + Number.parseInt(requestId.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : undefined;
}

export function encodeSlots(slots: readonly BatchSlot[], withRows = true): EncodedBatch {
  let firstAt = Infinity;
  let lastAt = -Infinity;
  let idMsMin = Infinity;
  let idMsMax = -Infinity;
  const otherIds: number[] = [];
  const combinations = new Set<string>();
  let previous: StoredRow | undefined;
  let requests = 0;
  slots.forEach((slot, position) => {
    if (!slot) return;
    requests++;
    const idMs = uuidV7Ms(slot[1]);
    if (idMs === undefined) otherIds.push(position);
    else {
      if (idMs < idMsMin) idMsMin = idMs;
      if (idMs > idMsMax) idMsMax = idMs;
    }
    if (slot[0] < firstAt) firstAt = slot[0];
    if (slot[0] > lastAt) lastAt = slot[0];
    // Requests in a row mostly share key, operation and status: one entry each run.
    if (
      previous === undefined ||
      slot[2] !== previous[2] ||
      slot[4] !== previous[4] ||
      slot[7] !== previous[7]
    )
      combinations.add(`|${slot[2]}|${slot[4]}|${slot[7]}|`);
    previous = slot;
  });
  return {
    requests,
    firstAt,
    lastAt,
    idMsMin: idMsMax >= idMsMin ? idMsMin : null,
    idMsMax: idMsMax >= idMsMin ? idMsMax : null,
    otherIds,
    combinations: [...combinations].join(','),
    rows: withRows ? compactRows(slots) : '',
  };
}

/**
 * The fields of a stored request that repeat from request to request (key id and label, operation,
 * method, error code, client address): a compact batch keeps each value once, in `strings`, and the
 * requests refer to it by position.
 */
const SHARED_FIELDS = [2, 3, 4, 5, 8, 10, 11] as const;

type CompactRow = (string | number | null)[];

/**
 * A compact batch, as stored since migration 057: `{"v":2,"base":…,"strings":[…],"rows":[…]}`, where a
 * row holds its time less `base`, its shared fields as positions in `strings` (null stays null), and its
 * latency in hundredths of a millisecond (as text when it has finer digits). Against the array of
 * requests stored before (still read), about 40 % fewer bytes to encode, write and checkpoint.
 */
interface CompactBatch {
  v: 2;
  base: number;
  strings: string[];
  rows: (CompactRow | null)[];
}

/** The `base` of compact rows holding these slots: their first time, or 0 when a time is not whole. */
export function compactBase(slotSets: readonly (readonly BatchSlot[])[]): number {
  // Times as offsets only when every one is a whole number: any other is stored as is (base 0), so
  // each reads back exactly.
  let base = Infinity;
  let last = -Infinity;
  for (const slot of slotSets.flat()) {
    if (!slot) continue;
    if (!Number.isSafeInteger(slot[0])) {
      last = Infinity;
      break;
    }
    if (slot[0] < base) base = slot[0];
    if (slot[0] > last) last = slot[0];
  }
  if (!Number.isSafeInteger(last - base)) base = 0;
  return base;
}

/**
 * Compact rows over one `base`, every row's shared fields in one `strings`: a batch's own (compactRows), or
 * a whole page's (request-log-pages.ts), whose batches then share their strings.
 */
export function compactEncoder(base: number) {
  const strings: string[] = [];
  const positions = new Map<string, number>();
  const position = (value: string) => {
    let at = positions.get(value);
    if (at === undefined) positions.set(value, (at = strings.push(value) - 1));
    return at;
  };
  /** The compact rows of some slots, their shared fields placed in `strings`. */
  const rowsOf = (slots: readonly BatchSlot[]) => {
    let previous: StoredRow | undefined;
    let previousRow: CompactRow | undefined;
    return slots.map((slot): CompactRow | null => {
      if (!slot) return null;
      const latency = slot[9];
      const hundredths = Math.round(latency * 100);
      const row: CompactRow = [
        slot[0] - base,
        slot[1],
        0,
        null,
        0,
        0,
        slot[6],
        slot[7],
        null,
        hundredths / 100 === latency ? hundredths : String(latency),
        0,
        null,
      ];
      if (slot[12] !== undefined) row.push(slot[12]);
      for (const field of SHARED_FIELDS) {
        const value = slot[field] ?? null;
        if (value === null) row[field] = null;
        else if (previous !== undefined && previous[field] === value) row[field] = previousRow![field]!;
        else row[field] = position(value);
      }
      previous = slot;
      previousRow = row;
      return row;
    });
  };
  return { strings, rowsOf };
}

function compactRows(slots: readonly BatchSlot[]): string {
  const base = compactBase([slots]);
  const { strings, rowsOf } = compactEncoder(base);
  const rows = rowsOf(slots);
  return JSON.stringify({ v: 2, base, strings, rows } satisfies CompactBatch);
}

function expandRows({ base, strings, rows }: CompactBatch): BatchSlot[] {
  // Rows stored before messages were kept end at the address (index 10); a count follows the message.
  const text = (position: string | number | null | undefined) =>
    position === null || position === undefined ? null : strings[position as number]!;
  return rows.map((row): BatchSlot => {
    if (row === null) return null;
    const slot: RequestFields = [
      (row[0] as number) + base,
      row[1] as string,
      text(row[2]!)!,
      text(row[3]!),
      text(row[4]!)!,
      text(row[5]!)!,
      row[6] as string,
      row[7] as number,
      text(row[8]!),
      typeof row[9] === 'string' ? Number(row[9]) : (row[9] as number) / 100,
      text(row[10]!)!,
      text(row[11]),
    ];
    if (row.length > 12) slot.push(row[12] as number);
    return slot;
  });
}

/** A batch to store: one project's requests of one UTC day, at most BATCH_SLOTS, in arrival order. */
export interface NewBatch {
  projectId: string;
  /** The UTC day (epoch ms / DAY_MS) of every request in it. */
  day: number;
  slots: RequestFields[];
  encoded: EncodedBatch;
  /**
   * The retention of the batch's project from its write's requests' plans (the longest, should the
   * plan have changed between them), or null when a request came without one: the write looks it up.
   */
  retentionDays: number | null;
}

/**
 * A write's requests as batches: by project, then by UTC day, each run cut at BATCH_SLOTS. A batch never
 * spans two days, so dropping a day's partition (PostgreSQL) removes no request of another day.
 */
export function batchesOf(entries: readonly LoggedRequest[], withRows = true): NewBatch[] {
  type Run = { projectId: string; day: number; slots: RequestFields[]; retention: number };
  const runs = new Map<string, Map<number, Run>>();
  let last: Run | undefined;
  for (const entry of entries) {
    const day = Math.floor(entry.at / DAY_MS);
    // Requests of a write mostly share project and day: the last run takes them without a lookup.
    if (last?.day !== day || last.projectId !== entry.projectId) {
      let days = runs.get(entry.projectId);
      if (!days) runs.set(entry.projectId, (days = new Map()));
      last = days.get(day);
      if (!last) days.set(day, (last = { projectId: entry.projectId, day, slots: [], retention: -Infinity }));
    }
    last.slots.push(requestFields(entry));
    // NaN (a request without its plan) stays: the run's retention is then looked up.
    last.retention = Math.max(
      last.retention,
      entry.plan ? REQUEST_LOG_RETENTION_DAYS[entry.plan] : Number.NaN,
    );
  }
  const batches: NewBatch[] = [];
  for (const { projectId, day, slots, retention } of [...runs.values()].flatMap((d) => [...d.values()])) {
    const retentionDays = Number.isNaN(retention) ? null : retention;
    for (let start = 0; start < slots.length; start += BATCH_SLOTS) {
      const part = slots.slice(start, start + BATCH_SLOTS);
      batches.push({ projectId, day, slots: part, encoded: encodeSlots(part, withRows), retentionDays });
    }
  }
  return batches;
}

/** A stored batch's requests, from either form: the compact one (since 057) or the array before it. */
export function decodeSlots(rows: string): BatchSlot[] {
  const parsed = JSON.parse(rows) as BatchSlot[] | CompactBatch;
  return Array.isArray(parsed) ? parsed : expandRows(parsed);
}

export function toStored(projectId: string, rowId: number, slot: StoredRow): StoredRequest {
  return {
    id: String(rowId),
    projectId,
    at: slot[0],
    requestId: slot[1],
    keyId: slot[2],
    keyLabel: slot[3],
    operation: slot[4],
    method: slot[5],
    path: slot[6],
    status: slot[7],
    code: slot[8],
    latencyMs: slot[9],
    address: slot[10],
    message: slot[11] ?? null,
    ...(slot[12] !== undefined && { count: slot[12] }),
  };
}

/** Whether a stored request matches every filter of the query (its project aside). */
export function slotFilter(query: RequestLogQuery): (slot: StoredRow, rowId: number) => boolean {
  const statusOk = statusMatcher(query.status);
  const before = query.before && { at: query.before.at, id: Number(query.before.id) };
  const prefix = query.requestIdPrefix;
  return (slot, rowId) =>
    (query.keyId === undefined || slot[2] === query.keyId) &&
    (query.requestId === undefined || slot[1] === query.requestId) &&
    (prefix === undefined || (slot[1].toLowerCase().startsWith(prefix) && uuidV7Ms(slot[1]) !== undefined)) &&
    (query.operation === undefined || slot[4] === query.operation) &&
    statusOk(slot[7]) &&
    (query.since === undefined || slot[0] >= query.since) &&
    (query.until === undefined || slot[0] < query.until) &&
    (before === undefined || slot[0] < before.at || (slot[0] === before.at && rowId < before.id));
}

/** Newest first: by time, then by row id. */
export const newestFirst = (a: StoredRequest, b: StoredRequest): number =>
  b.at - a.at || Number(b.id) - Number(a.id);
