import type { FastifyRequest } from 'fastify';
import type { Account } from '../identity/account-repository.ts';
import type { AuditAction } from './audit-records.ts';
import type { Storage } from '../../storage/repository.ts';
import type { Clock } from '../../time/clock.ts';
import { createAudited } from '../shared/audited.ts';

export interface AuditOptions {
  /** The account whose action it is (a sign-in names its own before a session exists). */
  account?: Account;
}

/**
 * Records a sign-in, an event rather than a change. The changes of an account (password, two-factor,
 * sessions ended) are recorded in their own transaction (features/identity/identity-changes.ts).
 */
export type Audit = (
  request: FastifyRequest,
  action: AuditAction,
  target: string | null,
  options?: AuditOptions,
) => Promise<void>;

/**
 * A sign-in is an event rather than a change, so it is recorded through the services' one audit writer
 * (features/shared/audited.ts) on its own, once done. A database that cannot take the record now is
 * logged with the whole event rather than failing a sign-in already made.
 */
export function createAudit(storage: Pick<Storage, 'transaction'>, clock: Clock): Audit {
  const audited = createAudited(storage, clock);
  return async (request, action, target, options = {}) => {
    const account = options.account ?? request.signedIn?.account;
    const actor = account
      ? { kind: 'account' as const, accountId: account.id, email: account.email, address: request.ip }
      : undefined;
    try {
      if (!actor) throw new Error('an account action without an account');
      await audited(actor, null, async () => ({ value: undefined, action, target }));
    } catch (err) {
      request.log.error(
        { err, audit: { action, target, address: request.ip } },
        'an audit event could not be recorded',
      );
    }
  };
}
