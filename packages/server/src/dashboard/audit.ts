import type { FastifyRequest } from 'fastify';
import type { Account } from '../storage/account-repository.ts';
import type { AuditAction } from '../features/audit/audit-records.ts';
import type { Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import { createAudited } from '../features/shared/audited.ts';

export interface AuditOptions {
  /** The account whose action it is (sign-in and a password reset name theirs before a session exists). */
  account?: Account;
}

/** Records an account's own action: a sign-in, a password changed or reset, two-factor turned on or off. */
export type Audit = (
  request: FastifyRequest,
  action: AuditAction,
  target: string | null,
  options?: AuditOptions,
) => Promise<void>;

/**
 * An account's own actions are events rather than changes of a project, so they are recorded through
 * the services' one audit writer (features/shared/audited.ts) on their own, once done. A database that
 * cannot take the record now is logged with the whole event rather than failing an action already made.
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
