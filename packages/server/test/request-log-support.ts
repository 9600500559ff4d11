import { generateKey } from '../src/auth/keys.ts';
import type { Plan } from '../src/storage/records.ts';
import type { TestApp } from './harness.ts';

/** A project (enterprise limits when given, else its plan's) and one labelled key of it. */
export async function projectWithKey(
  t: TestApp,
  slug: string,
  options: { plan?: Plan; perMinute?: number; label?: string } = {},
): Promise<{ projectId: string; keyId: string; secret: string }> {
  const plan = options.plan ?? (options.perMinute ? 'enterprise' : 'business');
  const project = (await t.storage.projects.create({
    id: `prj_${slug}`,
    slug,
    name: `Project ${slug}`,
    plan,
    perMinute: options.perMinute ?? null,
    perDay: options.perMinute ? 100_000 : null,
    createdAt: t.clock.now(),
  }))!;
  const { secret, id, digest, prefix } = generateKey('test');
  await t.storage.keys.create({
    id,
    digest,
    projectId: project.id,
    prefix,
    plan,
    perMinute: null,
    perDay: null,
    label: options.label ?? 'Storefront',
    environment: 'test',
    createdAt: t.clock.now(),
    expiresAt: null,
  });
  return { projectId: project.id, keyId: id, secret };
}
