import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { loadMigrations } from './migrations.ts';
import { describeDatabase, openStorage } from './open-storage.ts';

describe('openStorage', () => {
  it('opens SQLite for a plain path and for sqlite: / file: prefixes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-open-'));
    try {
      for (const url of [join(dir, 'a.db'), `sqlite:${join(dir, 'b.db')}`, `file://${join(dir, 'c.db')}`]) {
        const storage = await openStorage(url);
        assert.equal(storage.kind, 'sqlite');
        assert.deepEqual(
          await storage.migrate(),
          loadMigrations('sqlite').map((migration) => migration.name),
        );
        await storage.close();
      }
      const reopened = await openStorage(`sqlite:${join(dir, 'a.db')}`);
      assert.deepEqual(await reopened.migrate(), []);
      await reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('selects PostgreSQL for postgres:// and postgresql:// without connecting', async () => {
    for (const url of ['postgres://u@127.0.0.1:1/db', 'postgresql://u@127.0.0.1:1/db']) {
      const storage = await openStorage(url);
      assert.equal(storage.kind, 'postgres');
      await storage.close();
    }
  });
});

describe('describeDatabase', () => {
  it('never shows a PostgreSQL password', () => {
    const described = describeDatabase(
      'postgres://app:s3cret@db.internal:5432/petstore?password=s3cret&sslmode=require',
    );
    assert.ok(!described.includes('s3cret'), described);
    assert.match(described, /app@db\.internal:5432\/petstore/);
    assert.ok(!describeDatabase('postgresql://app:s3cret@[bad').includes('s3cret'));
  });

  it('names the SQLite file, the default one when no URL is given', () => {
    assert.equal(describeDatabase('sqlite:/var/lib/petstore.db'), 'sqlite /var/lib/petstore.db');
    assert.equal(describeDatabase(undefined), `sqlite ${resolve('data/petstore.db')}`);
    assert.equal(describeDatabase('x.db'), `sqlite ${resolve('x.db')}`);
  });
});
