import type { PoolClient } from 'pg';
import { createPetGroupCommit } from './pet-group-commit.ts';
import { insertPetWithKey, petWriter } from './postgres-create.ts';
import type { CreateResult } from '../../storage/records.ts';
import type { PetRepository } from './repository.ts';
import { PET_COLUMNS, type Row, toPet } from '../../storage/rows.ts';

type Query = (sql: string, params?: unknown[], name?: string) => Promise<Row[]>;
/** A transaction on one connection, committed when `keep(result)` holds, rolled back otherwise. */
type Transaction = <T>(work: (client: PoolClient) => Promise<T>, keep: (result: T) => boolean) => Promise<T>;

/**
 * The pets in PostgreSQL: plain creates arriving together share one INSERT (pet-group-commit.ts), a
 * create with an Idempotency-Key is a transaction of its own; reads are prepared statements.
 */
export function createPostgresPets(query: Query, transaction: Transaction): PetRepository {
  const insert = createPetGroupCommit(petWriter((sql, params, name) => query(sql, params, name)));
  const create: PetRepository['create'] = async (pet, options) => {
    const idempotency = options?.idempotency;
    if (!idempotency) return { kind: 'created', pet: await insert(pet) };
    const result = await transaction<CreateResult | undefined>(
      (client) => insertPetWithKey(client, pet, idempotency),
      (outcome) => outcome?.kind === 'created',
    );
    return result ?? create(pet, options);
  };
  return {
    create,
    async get(id) {
      const [row] = await query(`SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`, [id], 'petstore_get_pet');
      return row && toPet(row);
    },
    async list({ status, afterId = 0n, limit }) {
      const rows =
        status === undefined
          ? await query(
              `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
              [afterId, limit],
              'petstore_list_pets',
            )
          : await query(
              `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
              [status, afterId, limit],
              'petstore_list_pets_by_status',
            );
      return rows.map(toPet);
    },
    async count() {
      const [row] = await query('SELECT count(*) AS n FROM pets');
      return Number(row!.n);
    },
  };
}
