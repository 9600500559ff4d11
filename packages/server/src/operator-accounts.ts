// Accounts, members and invitations for `petstore admin`, `members` and `invitations`, apart from
// ./operator.ts: password hashing starts a worker pool (node:worker_threads) and loads node:crypto's
// hashing, and invitations load the mail messages, which the other operator commands do not need.
export { hashPassword, passwordProblem } from './accounts/passwords.ts';
export { emailProblem, normalizeEmail } from './accounts/email.ts';
export { invitationUrl, invite, INVITATION_TTL_MS } from './features/members/invitation-mail.ts';
export { createMemberService, INVITATION_PAGE, type MemberService } from './features/members/service.ts';
