import type { PoolClient } from 'pg';
import { StorageUnavailableError } from '../../storage/errors.ts';
import type { PetBatchWriter } from './pet-group-commit.ts';
import type { CreateResult, IdempotencyRecord, NewPet } from '../../storage/records.ts';
import { CREATE_WITH_KEY, storeKeyValues } from '../../idempotency/idempotency-sql.ts';
import { PET_COLUMNS, type Row, toIdempotency, toPet } from '../../storage/rows.ts';

type Query = (sql: string, params: unknown[], name: string) => Promise<Row[]>;

const INSERT_PET = `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${PET_COLUMNS}`;

/**
 * Plain creates, each statement a transaction of its own (autocommit): a batch is one INSERT over
 * arrays, so one round trip and one commit whatever its size. Named, so each pool connection parses
 * and plans them once.
 */
export function petWriter(query: Query): PetBatchWriter {
  return {
    insertMany: async (pets) =>
      (
        await query(
          `INSERT INTO pets (name, category_id, status)
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) RETURNING ${PET_COLUMNS}`,
          [
            pets.map((pet) => pet.name),
            pets.map((pet) => pet.categoryId),
            pets.map((pet) => pet.status ?? null),
          ],
          'petstore_insert_pets',
        )
      ).map(toPet),
    insertOne: async (pet) => {
      const [row] = await query(
        INSERT_PET,
        [pet.name, pet.categoryId, pet.status ?? null],
        'petstore_insert_pet',
      );
      return toPet(row!);
    },
    isUnavailable: (error) => error instanceof StorageUnavailableError,
  };
}

/**
 * Inserts the pet and its idempotency record inside the caller's transaction. The caller commits only
 * a `created` outcome, so a conflict leaves no pet behind. Undefined means the conflicting record
 * vanished (purged) between the insert and the read, and the caller should try again.
 */
export async function insertPetWithKey(
  client: PoolClient,
  pet: NewPet,
  idempotency: Omit<IdempotencyRecord, 'petId'>,
): Promise<CreateResult | undefined> {
  await client.query(CREATE_WITH_KEY.deleteExpired, [
    idempotency.apiKeyId,
    idempotency.key,
    idempotency.createdAt,
  ]);
  const inserted = await client.query(INSERT_PET, [pet.name, pet.categoryId, pet.status ?? null]);
  const created = toPet(inserted.rows[0]);
  const stored = await client.query(CREATE_WITH_KEY.storeKey, [...storeKeyValues(idempotency, created.id)]);
  if (stored.rowCount === 1) return { kind: 'created', pet: created };
  const existing = await client.query(CREATE_WITH_KEY.holder, [idempotency.apiKeyId, idempotency.key]);
  return existing.rows[0] && { kind: 'idempotency_conflict', existing: toIdempotency(existing.rows[0]) };
}
