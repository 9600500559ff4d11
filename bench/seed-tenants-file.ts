import { parseArgs } from 'node:util';
import { createKey, seedPostgres, seedSqlite } from './seed.ts';
import { seedTenantsPostgres, seedTenantsSqlite } from './seed-tenants.ts';

/**
 * Seeds a SQLite file (or, with --postgres URL, that database, dropped and re-created) as the tenants
 * scenario does, and keeps it, for timing single commands against:
 * `node bench/seed-tenants-file.ts --file /tmp/t.db --tenants 1000000 --tenant-keys 10000000`; with
 * `--rotation N`, N of the keys belong to the bench project and their secrets are written, one a line,
 * to `<file>.keys` (PostgreSQL: `--keys-file`), for wrk to rotate over.
 */
const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    postgres: { type: 'string' },
    tenants: { type: 'string', default: '100000' },
    'tenant-keys': { type: 'string' },
    pets: { type: 'string', default: '1000' },
    rotation: { type: 'string', default: '0' },
    'keys-file': { type: 'string' },
  },
});
const target = values.postgres ?? values.file;
if (!target) throw new Error('--file or --postgres is required');
const sizes = {
  projects: Number(values.tenants),
  keys: Number(values['tenant-keys'] ?? values.tenants),
  rotation: Number(values.rotation),
};
if (values.postgres) await seedPostgres(values.postgres, Number(values.pets));
else await seedSqlite(target, Number(values.pets));
const key = createKey(target);
const keysFile = values.postgres ? (values['keys-file'] ?? '/dev/null') : `${target}.keys`;
if (values.postgres) await seedTenantsPostgres(values.postgres, sizes, key, keysFile);
else seedTenantsSqlite(target, sizes, key);
console.log(`${target}: ${sizes.projects} projects, ${sizes.keys + 1} keys; bench key ${key}`);
if (sizes.rotation > 0) console.log(`${sizes.rotation} of them, in the bench project, listed in ${keysFile}`);
