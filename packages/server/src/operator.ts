// What the operator commands need, without the HTTP server: importing this module stays cheap (no
// Fastify, no contract, no docs), so `petstore keys …` starts in a fraction of `petstore serve`'s time.
export {
  ConfigError,
  configuredOrigin,
  loadConfig,
  keyEnvironmentOf,
  type Config,
  type ConfigFlags,
} from './config.ts';
export {
  DEFAULT_DATABASE,
  describeDatabase,
  openStorage,
  sqliteFile,
  sqlitePath,
} from './storage/open-storage.ts';
export type { ReversibleStorage } from './storage/migrations.ts';
export { generateKey } from './auth/keys.ts';
export { type Storage } from './storage/repository.ts';
export { PLANS, type ApiKeyRecord, type Plan } from './storage/records.ts';
export { limitsFor } from './ratelimit/plans.ts';
export { systemClock, type Clock } from './time/clock.ts';
export { ROLES, type Role } from './features/members/member-records.ts';
export { nameProblem, planProblem, slugProblem } from './features/projects/rules.ts';
export type { Project } from './features/projects/project-repository.ts';
export type { Account } from './storage/account-repository.ts';
export { parseSince, parseStatusFilter } from './insights/filters.ts';
export { retainedSince } from './insights/retention.ts';
export type { RequestLogQuery, StoredRequest } from './storage/request-log-records.ts';
export type { AuditAction, StoredAuditEvent } from './features/audit/audit-records.ts';
export { createKeyService, keyTarget, type KeyService } from './features/keys/service.ts';
export { OPERATOR } from './features/shared/actor.ts';
export type { Problem } from './features/shared/outcome.ts';
export { createProjectService, type ProjectService } from './features/projects/service.ts';
export { createAuditService } from './features/audit/service.ts';
export { createRequestService, type RequestFilters } from './features/requests/service.ts';
export { auditEventJson } from './features/audit/json.ts';
export { keyJson } from './features/keys/json.ts';
export { invitationJson, memberJson, pendingJson } from './features/members/json.ts';
export { projectJson } from './features/projects/json.ts';
export { requestJson } from './features/requests/json.ts';
