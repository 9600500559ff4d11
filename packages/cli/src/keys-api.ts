import { stringifyJson } from '@petstore/json';
import type { ManagedKey, ManagedProject } from './api-client.ts';
import { type CliIo, say } from './io.ts';
import { printCreatedKey, printRolledKey, unbanLine } from './keys-output.ts';
import { KEY_COLUMNS, stateCell } from './keys-list.ts';
import type { ProjectKeyAction } from './keys-project.ts';
import type { ManageApi } from './manage-session.ts';
import { cursorPager, type PageOptions, printPages } from './paged-output.ts';
import { formatInstant, formatTable } from './table.ts';

/** The management API's largest page of keys: a longer --limit is read in several. */
const API_PAGE = 100;

export interface ApiKeyChoice {
  project: string;
  label: string | null;
  expiresInDays: number | undefined;
  ownPerMinute: number | null;
  ownPerDay: number | null;
}

const instant = (text: string | null): number | null => (text === null ? null : Date.parse(text));
const count = (value: bigint | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

function planCell(project: ManagedProject, key: ManagedKey): string {
  const { plan, limits } = project;
  const base = plan === 'enterprise' ? `enterprise ${limits.perMinute}/min ${limits.perDay}/day` : plan;
  const perMinute = count(key.ownLimits?.perMinute);
  const perDay = count(key.ownLimits?.perDay);
  const own = [
    ...(perMinute === null ? [] : [`${perMinute}/min`]),
    ...(perDay === null ? [] : [`${perDay}/day`]),
  ];
  return own.length === 0 ? base : `${base}, own ${own.join(' ')}`;
}

/** A key of the API as a row of KEY_COLUMNS: the database mode's row, from the Key object. */
function apiKeyRow(project: ManagedProject, key: ManagedKey): string[] {
  return [
    key.id,
    key.environment,
    planCell(project, key),
    key.label ?? '-',
    formatInstant(instant(key.createdAt), '-'),
    formatInstant(instant(key.lastUsedAt), 'never'),
    formatInstant(instant(key.expiresAt), 'never'),
    stateCell({ state: key.state, until: instant(key.stateUntil) }),
  ];
}

async function projectOf(api: ManageApi, slug: string): Promise<ManagedProject> {
  return (await api.run((client) => client.get('/projects/{slug}', { path: { slug } }))).data;
}

/** `keys create --project` through the management API: the same output as on the database. */
async function create(io: CliIo, api: ManageApi, choice: ApiKeyChoice, json: boolean): Promise<void> {
  const slug = choice.project;
  const project = await projectOf(api, slug);
  const expiresAt =
    choice.expiresInDays === undefined ? undefined : new Date(Date.now() + choice.expiresInDays * 86_400_000);
  const { data } = await api.run((client) =>
    client.post('/projects/{slug}/keys', {
      path: { slug },
      body: {
        ...(choice.label === null ? {} : { label: choice.label }),
        ...(expiresAt === undefined ? {} : { expiresAt: expiresAt.toISOString() }),
        ...(choice.ownPerMinute === null ? {} : { perMinute: BigInt(choice.ownPerMinute) }),
        ...(choice.ownPerDay === null ? {} : { perDay: BigInt(choice.ownPerDay) }),
      },
    }),
  );
  const enterprise = project.plan === 'enterprise';
  printCreatedKey(
    io,
    {
      id: data.key.id,
      project: slug,
      environment: data.key.environment,
      plan: project.plan,
      perMinute: enterprise ? Number(project.limits.perMinute) : null,
      perDay: enterprise ? Number(project.limits.perDay) : null,
      ownPerMinute: choice.ownPerMinute,
      ownPerDay: choice.ownPerDay,
      label: data.key.label,
      expiresAt: instant(data.key.expiresAt),
      key: data.secret,
    },
    json,
  );
}

/** `keys list --project`: the project's keys in creation order, in pages of the API's cursor. */
async function list(io: CliIo, api: ManageApi, slug: string, options: PageOptions): Promise<void> {
  const project = await projectOf(api, slug);
  await printPages<ManagedKey>(
    io,
    {
      command: `petstore keys list --project ${slug}`,
      pager: cursorPager(API_PAGE, async (cursor, limit) => {
        const { data } = await api.run((client) =>
          client.get('/projects/{slug}/keys', { path: { slug }, query: { limit, cursor } }),
        );
        return data;
      }),
      columns: KEY_COLUMNS,
      row: (key) => apiKeyRow(project, key),
      record: (key) => stringifyJson(key),
      empty: `no keys; create one with: petstore keys create --project ${slug}`,
    },
    options,
  );
}

/** `keys get|update|unban|set-limits --project`: one key read or changed, printed as `keys get` prints it. */
async function oneKey(
  io: CliIo,
  api: ManageApi,
  slug: string,
  keyId: string,
  action: ProjectKeyAction,
  json: boolean,
): Promise<void> {
  const path = { slug, keyId };
  const read = () => api.run((client) => client.get('/projects/{slug}/keys/{keyId}', { path }));
  const before = action.kind === 'unban' ? (await read()).data : undefined;
  const { data } =
    action.kind === 'get'
      ? await read()
      : action.kind === 'update'
        ? await api.run((client) =>
            client.patch('/projects/{slug}/keys/{keyId}', {
              path,
              body: {
                ...(action.change.label === undefined ? {} : { label: action.change.label }),
                ...(action.change.perMinute === undefined
                  ? {}
                  : { perMinute: bigintOf(action.change.perMinute) }),
                ...(action.change.perDay === undefined ? {} : { perDay: bigintOf(action.change.perDay) }),
              },
            }),
          )
        : await api.run((client) => client.post('/projects/{slug}/keys/{keyId}/unban', { path }));
  if (before && !json) {
    say(io, unbanLine(keyId, before.state === 'banned'));
    return;
  }
  if (json) say(io, stringifyJson(data));
  else say(io, formatTable(KEY_COLUMNS, [apiKeyRow(await projectOf(api, slug), data)]));
}

const bigintOf = (value: number | null): bigint | null => (value === null ? null : BigInt(value));

/** A project's keys commands through the management API (the others are the operator's). */
export async function runKeysApi(
  io: CliIo,
  api: ManageApi,
  action: string,
  id: string | undefined,
  options: {
    choice: ApiKeyChoice;
    overlapSeconds: number | undefined;
    paging: PageOptions;
    keyAction: ProjectKeyAction | undefined;
  },
): Promise<void> {
  const { choice, paging } = options;
  if (action === 'create') return create(io, api, choice, paging.json);
  const slug = choice.project;
  if (action === 'list') return list(io, api, slug, paging);
  const keyId = id!;
  if (options.keyAction) return oneKey(io, api, slug, keyId, options.keyAction, paging.json);
  if (action === 'revoke') {
    await api.run((client) => client.delete('/projects/{slug}/keys/{keyId}', { path: { slug, keyId } }));
    say(io, `revoked ${keyId}`);
    return;
  }
  const overlap = options.overlapSeconds;
  const { data } = await api.run((client) =>
    client.post('/projects/{slug}/keys/{keyId}/roll', {
      path: { slug, keyId },
      body: overlap === undefined ? {} : { overlapSeconds: overlap },
    }),
  );
  printRolledKey(
    io,
    {
      id: data.key.id,
      previous: data.previous.id,
      previousExpiresAt: instant(data.previous.expiresAt),
      key: data.secret,
    },
    paging.json,
  );
}
