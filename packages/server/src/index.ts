export { buildApp, type AppDeps } from './app.ts';
export { ConfigError, loadConfig, keyEnvironmentOf, type Config, type ConfigFlags } from './config.ts';
export { closeOnSignals, startServer, type RunningServer, type StartOptions } from './server.ts';
export { runPrimary, WORKER_MIGRATE_ENV, WORKER_SLOT_ENV, type PrimaryOptions } from './cluster.ts';
export { DEFAULT_DATABASE, describeDatabase, openStorage, sqliteFile } from './storage/open-storage.ts';
export type { ReversibleStorage } from './storage/migrations.ts';
export { generateKey } from './auth/keys.ts';
export { type Storage } from './storage/repository.ts';
export { PLANS, type ApiKeyRecord, type Plan } from './storage/records.ts';
export { systemClock, FakeClock, type Clock } from './time/clock.ts';
export { hashPassword, passwordProblem } from './accounts/passwords.ts';
export { normalizeEmail } from './accounts/email.ts';
export { invitationUrl, invite, INVITATION_TTL_MS } from './accounts/invitations.ts';
export { ROLES, type Role } from './storage/member-records.ts';
export { nameProblem, planProblem, slugProblem } from './projects/project-rules.ts';
export { createDnsResolver } from './domains/dns.ts';
export {
  createDomainService,
  type DomainRefusal,
  type DomainService,
  type DomainView,
} from './domains/domain-service.ts';
export { ERROR_STATUS } from './errors.ts';
export type { Project } from './storage/project-repository.ts';
export type { Account } from './storage/account-repository.ts';
export { docsPage, type DocsPageOptions } from './docs/page.ts';
export { sendStaticAsset, type StaticAsset } from './web/static-asset.ts';
export { parseSince, parseStatusFilter } from './insights/filters.ts';
export { retainedSince } from './insights/retention.ts';
export type { RequestLogQuery, StoredRequest } from './storage/request-log-records.ts';
export type { AuditAction, StoredAuditEvent } from './storage/audit-records.ts';
