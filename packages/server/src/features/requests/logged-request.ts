import type { AnsweredRequest } from '../../http/answered.ts';
import { redactText } from '../../http/redact.ts';
import type { LoggedRequest } from './request-log-records.ts';

/**
 * The request log's row for an answered request made with a project's key, or undefined for any other
 * request (no key, or a standalone key). Only what is listed here is kept: never a header, a cookie or
 * a body, and the target and the error's message with secrets redacted.
 */
export function loggedRequest(answer: AnsweredRequest, at: number): LoggedRequest | undefined {
  const key = answer.key;
  if (!key?.projectId) return undefined;
  return {
    projectId: key.projectId,
    at,
    requestId: answer.id,
    keyId: key.id,
    keyLabel: key.label,
    operation: answer.config.operationId,
    method: answer.method,
    path: answer.loggedUrl,
    status: answer.status,
    code: answer.status >= 400 ? (answer.errorCode ?? null) : null,
    latencyMs: Math.round(answer.ms * 100) / 100,
    address: answer.address,
    message: answer.status >= 400 && answer.errorMessage ? redactText(answer.errorMessage) : null,
    plan: key.plan,
  };
}
