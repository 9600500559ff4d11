import { AsyncLocalStorage } from 'node:async_hooks';

/** A transaction of `Storage.transaction`, as long as its work may still run statements on it. */
export interface OpenTransaction {
  readonly open: boolean;
}

const current = new AsyncLocalStorage<OpenTransaction>();

/**
 * A statement or transaction started through the storage's own executor from inside a transaction's
 * work. On SQLite it would wait for the transaction it is part of, for ever; on PostgreSQL it would run
 * on another connection, outside the transaction, and stay when the transaction rolls back. A
 * programming error either way: the work must use the executor it was given.
 */
export class ReachedPastTransactionError extends Error {
  override readonly name = 'ReachedPastTransactionError';
  constructor() {
    super(
      "a statement through the storage's executor inside a transaction: use the transaction's executor " +
        '(the one its work was given), or run it after the transaction',
    );
  }
}

/** A transaction's executor used after the transaction ended (a reference kept past its work). */
export class TransactionEndedError extends Error {
  override readonly name = 'TransactionEndedError';
  constructor() {
    super('the transaction has ended: its executor runs no more statements');
  }
}

/** Runs a transaction's `work` with the transaction as its async context (see reachesPast). */
export function withinTransaction<T>(transaction: OpenTransaction, work: () => T): T {
  return current.run(transaction, work);
}

/** The open transaction whose work the caller is part of, if any. */
export function enclosingTransaction(): OpenTransaction | undefined {
  const transaction = current.getStore();
  return transaction?.open ? transaction : undefined;
}
