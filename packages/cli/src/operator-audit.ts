import type { AuditAction, Storage } from '@petstore/server/operator';

/** Records an operator's command in the project's audit trail (actor `operator`, no address). */
export async function recordOperator(
  storage: Pick<Storage, 'audit'>,
  action: AuditAction,
  projectId: string,
  target: string | null,
): Promise<void> {
  await storage.audit.record({
    at: Date.now(),
    projectId,
    actorAccountId: null,
    actor: 'operator',
    action,
    target,
    address: null,
  });
}
