import { createProjectRepository, type ProjectRepository } from './project-repository.ts';
import { createTwoFactorRecords, type TwoFactorRecords } from '../identity/two-factor-records.ts';
import type { SqlExecutor, Transactions } from '../../storage/sql-executor.ts';

const noTransaction: Transactions['transaction'] = () =>
  Promise.reject(new Error('a project service write runs inside its transaction, not one of its own'));

/**
 * The projects table's writes of the projects service, on a transaction's executor: the storage's
 * own statements (one INSERT, one UPDATE for SQLite and PostgreSQL), so they are written once. The
 * transaction tells the caches on commit.
 */
export function projectRecords(
  sql: SqlExecutor,
): Pick<ProjectRepository, 'create' | 'setPlan' | 'bySlug' | 'rename'> &
  Pick<TwoFactorRecords, 'setTwoFactorRequired'> {
  const { create, setPlan, bySlug, rename } = createProjectRepository(sql, noTransaction, 'sqlite', () => {});
  const { setTwoFactorRequired } = createTwoFactorRecords(sql);
  return { create, setPlan, bySlug, rename, setTwoFactorRequired };
}
