import {
  createPetstoreClient,
  type Pet,
  type PetstoreClient,
  PetstoreError,
  type PetStatus,
} from './api-client.ts';
import { DEFAULT_BASE_URL, petsBaseUrl, serviceAddress } from './api-address.ts';
import { apiFailure } from './api-failure.ts';
import { cliTransport } from './client-transport.ts';
import { deprecationNotice } from './deprecation-notice.ts';
import { CliError, EXIT } from './exit.ts';
import type { Timeouts } from './http-fetch.ts';
import { readTimeouts, TIMEOUT_HELP, TIMEOUT_OPTIONS } from './http-options.ts';
import { type CliIo, note, say } from './io.ts';
import { petJson, petTable, progressLine } from './pets-output.ts';
import { type ParsedCommand, parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

export { DEFAULT_BASE_URL };

const HELP = `petstore pets <list|create|get>: call the Pet Store API

  pets list [--status S] [--limit N] [--cursor C] [--all] [--json]
      One page of pets by ascending id (--limit 1 to 100, default 20); --all follows every next page
      (--limit is then the page size) with a progress line on a terminal.
  pets create --name N --category-id C [--status S] [--idempotency-key K] [--json]
      Adds a pet. The same --idempotency-key within 24 hours replays the first creation.
  pets get <id> [--json]
      One pet by id. The operation is deprecated and sunsets on 2030-12-05: a line on stderr says so,
      from the answer's Deprecation, Sunset and Link headers, with its replacement (pets list).

  Statuses: available, pending, sold. Output is a table, or one JSON object per line with --json
  (64-bit ids digit for digit). A 429 is waited out (Retry-After) and retried, as the client library does.

Settings (a line on stderr names the address used):
  PETSTORE_API_KEY    the API key (required, else exit status 5), e.g. from "petstore keys create --project P"
  --base-url URL      the API's address, else PETSTORE_BASE_URL, else ${DEFAULT_BASE_URL}; /v1 is
                      added when it has no path

${TIMEOUT_HELP}`;

const OPTIONS = {
  status: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  name: { type: 'string' },
  'category-id': { type: 'string' },
  'idempotency-key': { type: 'string' },
  'base-url': { type: 'string' },
  ...TIMEOUT_OPTIONS,
} as const;

const STATUSES: PetStatus[] = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The client, with the last answer's headers kept for what the command says beside the result. */
function client(
  io: CliIo,
  base: string,
  timeouts: Timeouts,
): { api: PetstoreClient; lastHeaders(): Headers } {
  const apiKey = io.env.PETSTORE_API_KEY;
  if (!apiKey) {
    throw new CliError(
      'PETSTORE_API_KEY is not set: export PETSTORE_API_KEY=<key> (a project\'s key, from the dashboard or "petstore keys create --project <slug>")',
      EXIT.notAllowed,
    );
  }
  const transport = cliTransport(io, base, timeouts);
  let headers = new Headers();
  const api = createPetstoreClient({
    baseUrl: base,
    apiKey,
    userAgent: 'petstore-cli',
    ...transport,
    fetch: async (input, init) => {
      const response = await transport.fetch(input, init);
      headers = response.headers;
      return response;
    },
  });
  return { api, lastHeaders: () => headers };
}

function status(parsed: ParsedCommand): PetStatus | undefined {
  const text = stringOption(parsed, 'status');
  if (text === undefined || STATUSES.includes(text as PetStatus)) return text as PetStatus | undefined;
  throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(text)}`);
}

function int64(name: string, text: string | undefined): bigint {
  if (text === undefined) throw new UsageError(`${name} is required`);
  const value = /^-?(0|[1-9]\d*)$/.test(text) ? BigInt(text) : undefined;
  if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
    throw new UsageError(`${name} must be a decimal 64-bit integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

function print(io: CliIo, pets: Pet[], json: boolean): void {
  if (json) for (const pet of pets) say(io, petJson(pet));
  else if (pets.length > 0) say(io, petTable(pets));
}

async function list(io: CliIo, api: PetstoreClient, parsed: ParsedCommand): Promise<void> {
  const json = parsed.values.json === true;
  const limit = positiveInteger('limit', stringOption(parsed, 'limit'), 100);
  const filter = status(parsed);
  if (parsed.values.all) {
    if (parsed.values.cursor !== undefined)
      throw new UsageError('--all starts from the first page: leave out --cursor');
    const progress = progressLine(io.stderr);
    const pets: Pet[] = [];
    let count = 0;
    for await (const pet of api.pets({ status: filter, pageSize: limit })) {
      count++;
      if (json) say(io, petJson(pet));
      else pets.push(pet);
      progress.update(`fetched ${count} pets…`);
    }
    progress.clear();
    print(io, pets, json);
    if (!json) note(io, `${count} pets`);
    return;
  }
  const page = await api.listPets({ status: filter, limit, cursor: stringOption(parsed, 'cursor') });
  print(io, page.pets, json);
  if (page.pets.length === 0 && !json) note(io, 'no pets');
  if (page.nextCursor) {
    note(io, `more pets: add --cursor ${page.nextCursor} for the next page, or --all for every page`);
  }
}

async function create(io: CliIo, api: PetstoreClient, parsed: ParsedCommand): Promise<void> {
  const name = stringOption(parsed, 'name');
  if (name === undefined) throw new UsageError('--name is required');
  const categoryId = int64('--category-id', stringOption(parsed, 'category-id'));
  const petStatus = status(parsed);
  const result = await api.createPet(
    petStatus === undefined ? { name, categoryId } : { name, categoryId, status: petStatus },
    { idempotencyKey: stringOption(parsed, 'idempotency-key') },
  );
  print(io, [result.pet], parsed.values.json === true);
  if (result.replayed)
    note(io, `replayed: Idempotency-Key ${result.idempotencyKey} had already created pet ${result.pet.id}`);
}

async function get(io: CliIo, api: PetstoreClient, parsed: ParsedCommand): Promise<void> {
  const ids = parsed.positionals.slice(1);
  if (ids.length !== 1) throw new UsageError('pets get takes one pet id');
  const { pet } = await api.getPet(int64('the pet id', ids[0]));
  print(io, [pet], parsed.values.json === true);
}

const ACTIONS = new Map([
  ['list', list],
  ['create', create],
  ['get', get],
]);

export async function runPets(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'pets', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action] = parsed.positionals;
  const run = ACTIONS.get(action ?? '');
  if (run === undefined) {
    throw new UsageError(
      action
        ? `unknown pets command "${action}"; run "petstore pets --help"`
        : 'pets needs one of list, create, get; run "petstore pets --help"',
    );
  }
  const timeouts = readTimeouts(io, parsed);
  const address = serviceAddress(io, stringOption(parsed, 'base-url'));
  const base = petsBaseUrl(address);
  const { api, lastHeaders } = client(io, base, timeouts);
  note(
    io,
    `petstore: API at ${base} with the key in PETSTORE_API_KEY (${address.source ?? 'the default address'})`,
  );
  try {
    await run(io, api, parsed);
    return EXIT.ok;
  } catch (error) {
    throw error instanceof PetstoreError ? apiFailure(error, base, 'check PETSTORE_API_KEY') : error;
  } finally {
    // Every answer of the deprecated operation says so, errors included.
    const notice =
      action === 'get' &&
      deprecationNotice(lastHeaders(), base, 'GET /v1/pets/{petId}', 'petstore pets list');
    if (notice) note(io, notice);
  }
}
