import { nameProblem, type PlanChoice, planProblem, slugProblem } from './rules.ts';
import type { Member, Role } from '../members/member-records.ts';
import type { Project } from './project-repository.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../../time/clock.ts';
import { type Actor, authorise } from '../shared/actor.ts';
import { createAudited } from '../shared/audited.ts';
import { done, type Outcome, type Problem, Refusal, refused } from '../shared/outcome.ts';
import { projectRecords } from './project-repository.ts';
import { accessTokenRecords } from '../access-tokens/repository.ts';
import { memberRecords } from '../members/repository.ts';
import { publishChange } from '../../storage/change-records.ts';
import { createTwoFactorRecords } from '../identity/two-factor-records.ts';

/** Projects an account may own that it created itself (the operator may add it to more). */
export const MAX_OWNED_PROJECTS = 10;

/** A project as an actor sees it: with the role it holds there. */
export interface VisibleProject {
  project: Project;
  role: Role;
  /** Whether members need two-factor sign-in; read where one project is answered. */
  twoFactorRequired?: boolean;
}

/** A project to create: its slug, name and plan. */
export interface NewProjectInput extends PlanChoice {
  slug: string;
  name: string;
}

const planIssue = (choice: PlanChoice): Problem | undefined => {
  const problem = planProblem(choice);
  return problem ? { code: 'invalid_body', message: problem, param: 'plan' } : undefined;
};

const operatorOnly = (what: string) =>
  refused('forbidden', `only the operator ${what}: plans are set on the server's command line`);

/**
 * Projects as the doors read and change them: the ones an actor may see, one at a time or all; and
 * the operator's creation and plan changes, each written with its audit record in one transaction.
 */
export function createProjectService(deps: {
  storage: Pick<Store, 'kind' | 'projects' | 'transaction' | 'sql'>;
  clock: Clock;
}) {
  const { clock } = deps;
  const { projects } = deps.storage;
  const audited = createAudited(deps.storage, clock);
  return {
    /** A new project on its plan (the operator's `projects create`); a taken slug is 409 conflict. */
    async create(actor: Actor, input: NewProjectInput): Promise<Outcome<Project>> {
      if (actor.kind !== 'operator') return operatorOnly('creates projects');
      const name = input.name.trim();
      const slugIssue = slugProblem(input.slug);
      if (slugIssue) return refused('invalid_body', slugIssue, 'slug');
      const nameIssue = nameProblem(name);
      if (nameIssue) return refused('invalid_body', nameIssue, 'name');
      const problem = planIssue(input);
      if (problem) return { ok: false, problem };
      const project: Project = {
        // node:crypto on first use, as in auth/keys.ts: the operator's read commands never load it.
        id: `prj_${process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex')}`,
        slug: input.slug,
        name,
        plan: input.plan,
        perMinute: input.perMinute,
        perDay: input.perDay,
        createdAt: clock.now(),
      };
      return audited(actor, project.id, async (sql) => {
        const created = await projectRecords(sql).create(project);
        if (!created) {
          throw new Refusal({
            code: 'conflict',
            message: `a project with slug ${project.slug} already exists`,
            param: 'slug',
          });
        }
        return { value: created, action: 'project_created', target: `${name} (${project.plan})` };
      });
    },

    /** Changes a project's plan (the operator's `projects set-plan`); its keys follow on their next request. */
    async setPlan(
      actor: Actor,
      slug: string,
      choice: PlanChoice,
    ): Promise<Outcome<{ project: Project; previous: Project }>> {
      if (actor.kind !== 'operator') return operatorOnly('changes plans');
      const problem = planIssue(choice);
      if (problem) return { ok: false, problem };
      const before = await projects.bySlug(slug);
      if (!before) return refused('not_found', `no project with slug ${slug}`, 'slug');
      return audited(actor, before.id, async (sql) => {
        const records = projectRecords(sql);
        if (!(await records.setPlan(slug, choice.plan, choice.perMinute, choice.perDay))) {
          throw new Refusal({ code: 'not_found', message: `no project with slug ${slug}`, param: 'slug' });
        }
        return {
          value: { project: (await records.bySlug(slug))!, previous: before },
          action: 'plan_changed',
          target: `${before.plan} → ${choice.plan}`,
        };
      });
    },

    /** A project's new name (an owner, on its Settings page). */
    async rename(actor: Actor, slug: string, name: string): Promise<Outcome<Project>> {
      const allowed = await authorise(projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const trimmed = name.trim();
      const issue = nameProblem(trimmed);
      if (issue) return refused('invalid_body', issue, 'name');
      return audited(actor, project.id, async (sql) => {
        const records = projectRecords(sql);
        await records.rename(slug, trimmed);
        return {
          value: (await records.bySlug(slug))!,
          action: 'project_renamed',
          target: `${project.name} → ${trimmed}`,
        };
      });
    },

    /**
     * Whether members need two-factor sign-in to reach the project (an owner). The caller checks that
     * the owner's own account has it first, so an owner never locks themselves out.
     */
    async setTwoFactorRequired(actor: Actor, slug: string, required: boolean): Promise<Outcome<Project>> {
      const allowed = await authorise(projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      return audited(actor, project.id, async (sql) => {
        await projectRecords(sql).setTwoFactorRequired(project.id, required, clock.now());
        return { value: project, action: 'two_factor_required', target: required ? 'on' : 'off' };
      });
    },

    /**
     * A Free project made by an account for itself (the management API): the account its owner, the
     * token that asked reaching it too; at most MAX_OWNED_PROJECTS owned. Plans above Free stay the
     * operator's to set.
     */
    async createOwn(
      actor: Extract<Actor, { kind: 'account' }>,
      input: { slug: string; name: string },
    ): Promise<Outcome<VisibleProject>> {
      if (actor.token?.scope === 'read') {
        return refused('insufficient_scope', 'this access token may only read: a change needs a write token');
      }
      const name = input.name.trim();
      const slugIssue = slugProblem(input.slug);
      if (slugIssue) return refused('invalid_body', slugIssue, 'slug');
      const nameIssue = nameProblem(name);
      if (nameIssue) return refused('invalid_body', nameIssue, 'name');
      const project: Project = {
        id: `prj_${process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex')}`,
        slug: input.slug,
        name,
        plan: 'free',
        perMinute: null,
        perDay: null,
        createdAt: clock.now(),
      };
      return audited(actor, project.id, async (sql) => {
        const [owned] = await sql.all(
          "SELECT count(*) AS n FROM memberships WHERE account_id = $1 AND role = 'owner'",
          [actor.accountId],
        );
        if (Number(owned!.n) >= MAX_OWNED_PROJECTS) {
          throw new Refusal({
            code: 'conflict',
            message: `you own ${MAX_OWNED_PROJECTS} projects, the most an account may create itself: ask the operator for more`,
          });
        }
        const created = await projectRecords(sql).create(project);
        if (!created) {
          throw new Refusal({
            code: 'conflict',
            message: `a project with slug ${project.slug} already exists`,
            param: 'slug',
          });
        }
        await memberRecords(sql, deps.storage.kind).add(
          actor.accountId,
          project.id,
          project.createdAt,
          'owner',
        );
        if (actor.token) {
          await accessTokenRecords(sql).grantProject(actor.token.tokenId, project.id);
          // The token's grant changed: every instance drops its cached copy (migration 150's feed).
          await publishChange(sql, { accountId: actor.accountId });
        }
        return {
          value: { project: created, role: 'owner' as const, twoFactorRequired: false },
          action: 'project_created',
          target: `${name} (free)`,
        };
      });
    },

    /**
     * An owner's changes to a project (the management API's PATCH): its name, whether members need
     * two-factor sign-in (only once the owner's own account has it, so no owner locks themselves out),
     * and its plan, which an owner may only bring down to Free. Each change is audited; all or none.
     */
    async update(
      actor: Extract<Actor, { kind: 'account' }>,
      slug: string,
      change: { name?: string; twoFactorRequired?: boolean; plan?: string },
    ): Promise<Outcome<VisibleProject>> {
      const allowed = await authorise(projects, actor, slug, 'owner', true);
      if (!allowed.ok) return allowed;
      const { project } = allowed.value;
      const name = change.name?.trim();
      if (name !== undefined) {
        const issue = nameProblem(name);
        if (issue) return refused('invalid_body', issue, 'name');
      }
      if (change.plan !== undefined && change.plan !== project.plan && change.plan !== 'free') {
        return refused(
          'forbidden',
          'an owner may move a project down to Free; other plans are set by the operator',
          'plan',
        );
      }
      return audited(actor, project.id, async (sql) => {
        const records = projectRecords(sql);
        const also: { action: 'project_renamed' | 'two_factor_required' | 'plan_changed'; target: string }[] =
          [];
        if (name !== undefined && name !== project.name) {
          await records.rename(slug, name);
          also.push({ action: 'project_renamed', target: `${project.name} → ${name}` });
        }
        if (change.twoFactorRequired !== undefined) {
          if (change.twoFactorRequired) {
            if (!(await createTwoFactorRecords(sql).hasSecondFactor(actor.accountId))) {
              throw new Refusal({
                code: 'two_factor_required',
                message: 'turn on two-factor sign-in for your own account first',
                param: 'twoFactorRequired',
              });
            }
          }
          await records.setTwoFactorRequired(project.id, change.twoFactorRequired, clock.now());
          also.push({ action: 'two_factor_required', target: change.twoFactorRequired ? 'on' : 'off' });
        }
        if (change.plan === 'free' && project.plan !== 'free') {
          await records.setPlan(slug, 'free', null, null);
          also.push({ action: 'plan_changed', target: `${project.plan} → free` });
        }
        const [first, ...rest] = also;
        return {
          value: {
            project: (await records.bySlug(slug))!,
            role: allowed.value.role,
            twoFactorRequired: await createTwoFactorRecords(sql).twoFactorRequired(project.id),
          },
          action: first?.action ?? null,
          target: first?.target ?? null,
          also: rest,
        };
      });
    },

    /** The account's projects (through a token: those of the token), by name; every project for the operator. */
    async list(actor: Actor): Promise<VisibleProject[]> {
      if (actor.kind !== 'account') {
        return (await projects.list()).map((project) => ({ project, role: 'owner' as const }));
      }
      const mine = await projects.listForAccount(actor.accountId);
      const visible = actor.token ? mine.filter((project) => actor.token!.projectIds.has(project.id)) : mine;
      return Promise.all(
        visible.map(async (project) => ({
          project,
          role: (await projects.roleOf(actor.accountId, project.id)) ?? 'viewer',
        })),
      );
    },
    /** The project's members, for anyone who may read it. */
    async members(actor: Actor, slug: string): Promise<Outcome<Member[]>> {
      const allowed = await authorise(projects, actor, slug, 'viewer', false);
      return allowed.ok ? done(await projects.members(allowed.value.project.id)) : allowed;
    },
    async get(actor: Actor, slug: string): Promise<Outcome<VisibleProject>> {
      const allowed = await authorise(projects, actor, slug, 'viewer', false);
      if (!allowed.ok) return allowed;
      const twoFactorRequired = await createTwoFactorRecords(deps.storage.sql).twoFactorRequired(
        allowed.value.project.id,
      );
      return done({ ...allowed.value, twoFactorRequired });
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
