import type { FastifyRequest } from 'fastify';
import type { Account } from '../storage/account-repository.ts';
import type { AuditAction } from '../storage/audit-records.ts';
import type { Project } from '../storage/project-repository.ts';
import type { Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';

export interface AuditOptions {
  /** By default the project of the route; null for the account's own action. */
  project?: Project | null;
  /** By default the signed-in account (sign-in and joining name theirs before a session exists). */
  account?: Account;
}

export type Audit = (
  request: FastifyRequest,
  action: AuditAction,
  target: string | null,
  options?: AuditOptions,
) => Promise<void>;

/**
 * Records a dashboard action with who, when and from where, once it is done. A database that cannot
 * take the record now is logged with the whole event rather than failing an action already made.
 */
export function createAudit(storage: Pick<Storage, 'audit'>, clock: Clock): Audit {
  return async (request, action, target, options = {}) => {
    const account = options.account ?? request.signedIn?.account;
    const project = options.project === undefined ? request.member?.project : options.project;
    const event = {
      at: clock.now(),
      projectId: project?.id ?? null,
      actorAccountId: account?.id ?? null,
      actor: account?.email ?? 'unknown',
      action,
      target,
      address: request.ip,
    };
    try {
      await storage.audit.record(event);
    } catch (err) {
      request.log.error({ err, audit: event }, 'an audit event could not be recorded');
    }
  };
}
