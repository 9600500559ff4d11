import type { ApiKeyRecord } from '@petstore/server/storage/records.ts';
import { createKeyService } from '@petstore/server/features/keys/service.ts';
import { keyJson } from '@petstore/server/features/keys/json.ts';
import { type KeyStatus, keyStatus, keyStatusText } from '@petstore/server/features/keys/state.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { NotFoundError, refusalError } from './exit.ts';
import type { CliIo } from './io.ts';
import { databasePager, decodeCursor, type PageOptions, type Pager, printPages } from './paged-output.ts';
import { type Column, formatInstant } from './table.ts';

/** The STATE column: the keys service's one reading of a key (`rolling until …`, `banned until …`). */
export const stateCell = (status: KeyStatus): string => keyStatusText(status, (at) => formatInstant(at, ''));

/** A key record as a row of KEY_COLUMNS. */
export function keyRow(key: ApiKeyRecord, now: number): string[] {
  return [
    key.id,
    key.environment,
    planCell(key),
    key.label ?? '-',
    formatInstant(key.createdAt, '-'),
    formatInstant(key.lastUsedAt, 'never'),
    formatInstant(key.expiresAt, 'never'),
    stateCell(keyStatus(key, now)),
  ];
}

function planCell(key: ApiKeyRecord): string {
  const plan = key.plan === 'enterprise' ? `enterprise ${key.perMinute}/min ${key.perDay}/day` : key.plan;
  const own = [
    ...(key.ownPerMinute === null ? [] : [`${key.ownPerMinute}/min`]),
    ...(key.ownPerDay === null ? [] : [`${key.ownPerDay}/day`]),
  ];
  return own.length === 0 ? plan : `${plan}, own ${own.join(' ')}`;
}

export const KEY_COLUMNS: Column[] = [
  { title: 'ID' },
  { title: 'ENV' },
  { title: 'PLAN' },
  { title: 'LABEL' },
  { title: 'CREATED' },
  { title: 'LAST USED' },
  { title: 'EXPIRES' },
  { title: 'STATE' },
];

/** One project's keys, through the keys service (its cursors are the management API's). */
function projectPager(storage: Store, slug: string): Pager<ApiKeyRecord> {
  // Listing makes no key: the environment new keys would get does not matter here.
  const keys = createKeyService({ storage, clock: systemClock, keyEnvironment: 'test' });
  return async (cursor, limit) => {
    const page = await keys.list(OPERATOR, slug, { cursor, limit });
    if (!page.ok) {
      const { problem } = page;
      throw problem.code === 'not_found'
        ? new NotFoundError(`no project with slug ${slug}; "petstore projects list" shows them`)
        : refusalError(problem);
    }
    return { items: page.value.data, next: page.value.next ?? undefined };
  };
}

export type KeysCursor = { createdAt: number; id: string };

/** `keys list --cursor`, read before the database is opened. */
export function readKeysCursor(text: string | undefined): KeysCursor | undefined {
  return decodeCursor('keys list', text, (value) => {
    const { createdAt, id } = (value ?? {}) as { createdAt?: unknown; id?: unknown };
    return Number.isSafeInteger(createdAt) && typeof id === 'string' && id.length <= 100
      ? { createdAt: createdAt as number, id }
      : undefined;
  });
}

/**
 * `keys list`: one page of keys in creation order (a table, or with --json an array of the management
 * API's Key objects),
 * the next page's cursor on stderr, or with --all every key in constant memory (printPages).
 */
export async function listKeys(
  io: CliIo,
  storage: Store,
  options: PageOptions & { project?: string },
): Promise<void> {
  const now = Date.now();
  const { project } = options;
  await printPages<ApiKeyRecord>(
    io,
    {
      command: project ? `petstore keys list --project ${project}` : 'petstore keys list',
      pager: project
        ? projectPager(storage, project)
        : databasePager(
            (after, limit) => storage.keys.listPage({ after, limit }),
            (key) => ({ createdAt: key.createdAt, id: key.id }),
            readKeysCursor,
          ),
      columns: KEY_COLUMNS,
      row: (key) => keyRow(key, now),
      record: (key) => JSON.stringify(keyJson(key, now)),
      empty: 'no keys; create one with: petstore keys create --plan free',
    },
    options,
  );
}
