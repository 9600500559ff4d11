import { createProjectRepository, type ProjectRepository } from '../../storage/project-repository.ts';
import type { SqlBatch, SqlExecutor } from '../../storage/sql-executor.ts';

const noBatch: SqlBatch = () => Promise.reject(new Error('a project service write runs no batch'));

/**
 * The projects table's writes of the projects service, on a transaction's executor: the storage's
 * own statements (one INSERT, one UPDATE for SQLite and PostgreSQL), so they are written once. The
 * transaction tells the caches on commit.
 */
export function projectRecords(sql: SqlExecutor): Pick<ProjectRepository, 'create' | 'setPlan' | 'bySlug'> {
  const { create, setPlan, bySlug } = createProjectRepository(sql, noBatch, () => {});
  return { create, setPlan, bySlug };
}
