import { randomBytes } from 'node:crypto';
import type { Role } from '../src/features/members/member-records.ts';
import type { TestApp } from './harness.ts';

export interface TokenHolder {
  accountId: string;
  email: string;
  /** `ps_at_…` */
  token: string;
  tokenId: string;
}

/**
 * An account holding `role` in each of `slugs` (created on the free plan when missing) and an access
 * token of it reaching them, made by the access-token service as the dashboard makes them.
 */
export async function tokenHolder(
  test: TestApp,
  slugs: string[],
  options: { role?: Role; scope?: 'read' | 'write'; expiresInDays?: number; managesTokens?: boolean } = {},
): Promise<TokenHolder> {
  const { storage, clock } = test;
  const suffix = randomBytes(4).toString('hex');
  const accountId = `acc_${suffix}`;
  const email = `holder-${suffix}@example.com`;
  await storage.accounts.create({
    id: accountId,
    email,
    passwordHash: 'scrypt$unused',
    createdAt: clock.now(),
  });
  for (const slug of slugs) {
    const project =
      (await storage.projects.bySlug(slug)) ??
      (await storage.projects.create({
        id: `prj_${slug}`,
        slug,
        name: `Project ${slug}`,
        plan: 'free',
        perMinute: null,
        perDay: null,
        createdAt: clock.now(),
      }))!;
    await storage.projects.addMember(accountId, project.id, clock.now(), options.role ?? 'owner');
  }
  const created = await test.app.accessTokens.create(
    { kind: 'account', accountId, email, address: '127.0.0.1' },
    {
      name: `token ${suffix}`,
      scope: options.scope ?? 'write',
      projects: slugs,
      expiresInDays: options.expiresInDays ?? 30,
      managesTokens: options.managesTokens,
    },
  );
  if (!created.ok) throw new Error(created.problem.message);
  return { accountId, email, token: created.value.secret, tokenId: created.value.token.id };
}
