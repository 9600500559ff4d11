import type { RouteHandlerMethod } from 'fastify';
import type { DashboardContext } from '../shared/dashboard-context.ts';
import { urlFor } from '../shared/urls.ts';
import { field } from '../../web/form-body.ts';
import type { Actor } from '../shared/actor.ts';
import { accessTokensView, revokeTokenView } from './view.ts';

const PAGE = () => urlFor('accessTokensPage');

/** Account → Access tokens in the dashboard, on the access-token service. */
export function accessTokenPages(context: DashboardContext): Record<string, RouteHandlerMethod> {
  const { storage, clock, flashes, accessTokens: tokens } = context;
  const actorOf = (request: Parameters<RouteHandlerMethod>[0]): Extract<Actor, { kind: 'account' }> => {
    const { account } = context.signedIn(request);
    return { kind: 'account', accountId: account.id, email: account.email, address: request.ip };
  };
  return {
    async accessTokensPage(request, reply) {
      const { account, csrfToken } = context.signedIn(request);
      const main = accessTokensView({
        tokens: await tokens.list(account.id),
        projects: await storage.projects.listForAccount(account.id),
        csrfToken,
        now: clock.now(),
        flash: await flashes.take(request, PAGE()),
      });
      return context.page(request, reply, 'Access tokens', main);
    },
    async createAccessToken(request, reply) {
      const body = (request.body ?? {}) as Record<string, string>;
      const name = field(body, 'name');
      const outcome = await tokens.create(actorOf(request), {
        name,
        scope: field(body, 'scope'),
        managesTokens: field(body, 'manage_tokens') === 'on',
        projects: Object.keys(body)
          .filter((key) => key.startsWith('project:'))
          .map((key) => key.slice('project:'.length)),
        expiresInDays: Number(field(body, 'expires')),
      });
      if (!outcome.ok) {
        const { message } = outcome.problem;
        await flashes.put(request, PAGE(), {
          problem: `${message[0]!.toUpperCase()}${message.slice(1)}.`,
          values: { name },
        });
      } else {
        const { token, secret } = outcome.value;
        request.log.info({ tokenId: token.id, account: token.accountId }, 'access token created');
        await flashes.put(request, PAGE(), {
          accessToken: { secret, name: token.name, prefix: token.prefix },
        });
      }
      return context.back(reply, PAGE());
    },
    async revokeAccessTokenPage(request, reply) {
      const { tokenId } = request.params as { tokenId: string };
      const { account, csrfToken } = context.signedIn(request);
      const token = (await tokens.active(account.id)).find((candidate) => candidate.id === tokenId);
      if (!token) {
        await flashes.put(request, PAGE(), { problem: 'That token is not active.' });
        return context.back(reply, PAGE());
      }
      return context.page(request, reply, `Revoke ${token.name}`, revokeTokenView(token, csrfToken));
    },
    async revokeAccessToken(request, reply) {
      const { tokenId } = request.params as { tokenId: string };
      const outcome = await tokens.revoke(actorOf(request), tokenId);
      await flashes.put(
        request,
        PAGE(),
        outcome.ok
          ? { notice: `“${outcome.value.name}” was revoked: it stops working at once.` }
          : { problem: 'That token is not active.' },
      );
      return context.back(reply, PAGE());
    },
  };
}
