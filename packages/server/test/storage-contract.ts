import { afterEach, beforeEach, describe } from 'node:test';
import type { ReversibleStore } from '../src/features/store.ts';
import { accountContract } from './storage-contract-accounts.ts';
import { auditContract } from './storage-contract-audit.ts';
import { changeContract } from './storage-contract-changes.ts';
import { domainContract } from './storage-contract-domains.ts';
import { idempotencyContract } from './storage-contract-idempotency.ts';
import { keyContract } from './storage-contract-keys.ts';
import { lifecycleContract } from './storage-contract-lifecycle.ts';
import { outboxContract } from './storage-contract-outbox.ts';
import { passkeyContract } from './storage-contract-passkeys.ts';
import { petContract } from './storage-contract-pets.ts';
import { projectContract } from './storage-contract-projects.ts';
import { requestLogGeneratedContract } from './storage-contract-request-log-generated.ts';
import { requestLogContract, usageContract, usageTallyContract } from './storage-contract-request-log.ts';
import { requestLogSharedContract } from './storage-contract-request-log-shared.ts';
import { transactionContract } from './storage-contract-transactions.ts';
import { twoFactorContract } from './storage-contract-two-factor.ts';
import { writePathContract } from './storage-contract-write-path.ts';

export interface StorageFixture {
  /** A migrated storage over a fresh, empty database. */
  storage: ReversibleStore;
  /** Another instance over the same database, as a second process or a restart would open it. */
  open(): Promise<ReversibleStore>;
  /** Closes every instance and removes the database. */
  dispose(): Promise<void>;
}

export type FixtureFactory = () => Promise<StorageFixture>;

/** The behaviour every Storage implementation must share; each test gets its own fresh database. */
export function runStorageContract(name: string, makeStorage: FixtureFactory): void {
  describe(`${name} storage contract`, () => {
    let current: StorageFixture | undefined;
    beforeEach(async () => {
      current = await makeStorage();
    });
    afterEach(async () => {
      await current?.dispose();
      current = undefined;
    });
    const fixture = (): StorageFixture => current!;
    petContract(fixture);
    keyContract(fixture);
    idempotencyContract(fixture);
    projectContract(fixture);
    accountContract(fixture);
    domainContract(fixture);
    lifecycleContract(fixture);
    requestLogContract(fixture);
    requestLogGeneratedContract(fixture);
    requestLogSharedContract(fixture);
    usageContract(fixture);
    usageTallyContract(fixture);
    auditContract(fixture);
    twoFactorContract(fixture);
    passkeyContract(fixture);
    changeContract(fixture);
    transactionContract(fixture);
    writePathContract(fixture);
    outboxContract(fixture);
  });
}
