import type { ApiKeyRecord, Storage } from '@petstore/server/operator';
import { type CliIo, say } from './io.ts';
import { type Column, formatInstant, formatTable } from './table.ts';

/** active, revoked, expired or banned until an instant, in that order of precedence. */
export function keyState(key: ApiKeyRecord, now: number): string {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  if (key.bannedUntil !== null && key.bannedUntil > now)
    return `banned until ${formatInstant(key.bannedUntil, '')}`;
  return 'active';
}

function planCell(key: ApiKeyRecord): string {
  const plan = key.plan === 'enterprise' ? `enterprise ${key.perMinute}/min ${key.perDay}/day` : key.plan;
  const own = [
    ...(key.ownPerMinute === null ? [] : [`${key.ownPerMinute}/min`]),
    ...(key.ownPerDay === null ? [] : [`${key.ownPerDay}/day`]),
  ];
  return own.length === 0 ? plan : `${plan}, own ${own.join(' ')}`;
}

const COLUMNS: Column[] = [
  { title: 'ID' },
  { title: 'ENV' },
  { title: 'PLAN' },
  { title: 'LABEL' },
  { title: 'CREATED' },
  { title: 'LAST USED' },
  { title: 'EXPIRES' },
  { title: 'STATE' },
];

/** `keys list`: a table for people, or with --json an array without digests. */
export async function listKeys(io: CliIo, storage: Storage, json: boolean): Promise<void> {
  const keys = await storage.listKeys();
  const now = Date.now();
  if (json) {
    const records = keys.map(({ digest: _digest, ...key }) => ({
      ...key,
      state: keyState({ ...key, digest: '' }, now),
    }));
    say(io, JSON.stringify(records));
    return;
  }
  if (keys.length === 0) {
    say(io, 'no keys; create one with: petstore keys create --plan free');
    return;
  }
  const rows = keys.map((key) => [
    key.id,
    key.environment,
    planCell(key),
    key.label ?? '-',
    formatInstant(key.createdAt, '-'),
    formatInstant(key.lastUsedAt, 'never'),
    formatInstant(key.expiresAt, 'never'),
    keyState(key, now),
  ]);
  say(io, formatTable(COLUMNS, rows));
}
