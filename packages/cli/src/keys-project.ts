import { keyJson } from '@petstore/server/features/keys/json.ts';
import { createKeyService, type KeyChange } from '@petstore/server/features/keys/service.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { keyStatus } from '@petstore/server/features/keys/state.ts';
import type { ApiKeyRecord } from '@petstore/server/storage/records.ts';
import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { refusalError } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { KEY_COLUMNS, keyRow } from './keys-list.ts';
import { unbanLine } from './keys-output.ts';
import { formatTable } from './table.ts';

/** What `keys get|update|unban|set-limits --project` do to one key of the project. */
export type ProjectKeyAction = { kind: 'get' } | { kind: 'update'; change: KeyChange } | { kind: 'unban' };

/** One key as `keys get` prints it: the list's table of one row, or with --json the API's Key object. */
export function printKey(io: CliIo, key: ApiKeyRecord, json: boolean): void {
  const now = systemClock.now();
  say(io, json ? JSON.stringify(keyJson(key, now)) : formatTable(KEY_COLUMNS, [keyRow(key, now)]));
}

/**
 * A project's key read, changed or unbanned on the database, through the keys service as the
 * management API does (the same checks, refusals and audit records, by the operator).
 */
export async function projectKeyAction(
  io: CliIo,
  storage: Store,
  slug: string,
  id: string,
  action: ProjectKeyAction,
  json: boolean,
): Promise<void> {
  // Reading and changing make no key: the environment new keys would get does not matter here.
  const keys = createKeyService({ storage, clock: systemClock, keyEnvironment: 'test' });
  const before = action.kind === 'unban' ? await keys.get(OPERATOR, slug, id) : undefined;
  const outcome =
    action.kind === 'get'
      ? await keys.get(OPERATOR, slug, id)
      : action.kind === 'update'
        ? await keys.update(OPERATOR, slug, id, action.change)
        : await keys.unban(OPERATOR, slug, id);
  if (!outcome.ok) throw refusalError(outcome.problem);
  if (action.kind === 'unban' && !json) {
    const wasBanned = before?.ok && keyStatus(before.value, systemClock.now()).state === 'banned';
    say(io, unbanLine(id, wasBanned === true));
    return;
  }
  printKey(io, outcome.value, json);
}
