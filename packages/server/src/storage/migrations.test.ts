import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { loadMigrations, upToDate } from './migrations.ts';

const folder = (name: string) => new URL(`./migrations/${name}/`, import.meta.url);
const files = (name: string) => readdirSync(folder(name)).sort();

describe('migrations', () => {
  it('SQL that is the same in both dialects → kept once, in shared/, and read by both', () => {
    const twice = files('sqlite').filter(
      (file) =>
        files('postgres').includes(file) &&
        readFileSync(new URL(file, folder('sqlite')), 'utf8') ===
          readFileSync(new URL(file, folder('postgres')), 'utf8'),
    );
    assert.deepEqual(twice, []);
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const texts = loadMigrations(dialect).flatMap((migration) => [migration.up, migration.down]);
      for (const file of files('shared')) {
        assert.ok(
          texts.includes(readFileSync(new URL(file, folder('shared')), 'utf8')),
          `${dialect}: ${file}`,
        );
      }
    }
  });

  it('upToDate → true once every migration of the dialect is applied, whatever else is; false while one is missing', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const versions = loadMigrations(dialect).map((migration) => migration.version);
      assert.equal(upToDate(dialect, versions), true);
      assert.equal(upToDate(dialect, [...versions, 9_999]), true);
      assert.equal(upToDate(dialect, versions.slice(0, -1)), false);
      assert.equal(upToDate(dialect, versions.slice(1)), false);
      assert.equal(upToDate(dialect, []), false);
    }
  });

  it('each SQLite migration undone → the schema is as it was before it', () => {
    const db = new DatabaseSync(':memory:');
    // SQLite's own tables (sqlite_sequence) stay; a table rebuilt by a migration is stored with its
    // name quoted and its text spaced as written: the same schema.
    const schema = () =>
      db
        .prepare(
          "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY type, name",
        )
        .all()
        .map((row) => ({
          ...row,
          sql: String(row.sql)
            .replace(/"(\w+)"/g, '$1')
            .replace(/\s+/g, ' ')
            .replace(/ ?([(),]) ?/g, '$1'),
        }));
    for (const migration of loadMigrations('sqlite')) {
      const before = schema();
      db.exec(migration.up);
      const after = schema();
      db.exec(migration.down);
      assert.deepEqual(schema(), before, `${migration.name} down`);
      db.exec(migration.up);
      assert.deepEqual(schema(), after, `${migration.name} up again`);
    }
    db.close();
  });
});
