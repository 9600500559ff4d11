import type { CustomDomain } from '../src/features/domains/domain-repository.ts';
import type { SignedIn, TestApp } from './harness.ts';

/** A dashboard form posted by a signed-in member, as the browser sends it (with the CSRF token). */
export const postForm = (app: TestApp, who: SignedIn, url: string, fields: Record<string, string> = {}) =>
  app.request({
    method: 'POST',
    url,
    key: null,
    unchecked: true,
    headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: who.csrfToken, ...fields }).toString(),
  });

/** A domain as storage holds it once verified, for tests that put one in place without DNS. */
export const verifiedDomain = (
  hostname: string,
  projectId: string,
  at: number,
  extra: Partial<CustomDomain> = {},
): CustomDomain => ({
  hostname,
  projectId,
  apex: false,
  token: 'token',
  state: 'verified',
  reason: null,
  primary: true,
  checks: { records: [], warnings: [] },
  createdAt: at,
  verifiedAt: at,
  checkedAt: at,
  nextCheckAt: at + 3_600_000,
  checkError: null,
  checkFailures: 0,
  wrongSince: null,
  proofTxt: false,
  failedAt: null,
  ...extra,
});
