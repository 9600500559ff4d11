// Generated from openapi/manage.yaml by scripts/generate-contract-types.ts: do not edit.
// Run `npm run generate:types` after changing the contract; the tests fail while this file is stale.

export interface paths {
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List projects
         * @description The projects the token reaches and its account is a member of, by name, with the account's role.
         */
        get: operations["listProjects"];
        put?: never;
        /**
         * Create a project
         * @description Creates a project on the Free plan, owned by the token's account; the token that asks reaches it at once (other tokens do not). Needs a write token. An account may own at most 10 projects it created itself (`409 conflict` past that); plans above Free are set by the operator. A taken slug is `409 conflict`.
         */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a project
         * @description One project the token reaches, with the account's role in it.
         */
        get: operations["getProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a project
         * @description An owner's changes, each optional, all made or none: the name; whether members need two-factor sign-in (`twoFactorRequired`: turning it on needs the owner's own account to have two-factor, else `403 two_factor_required`); and the plan, which an owner may only bring down to `free` (another plan is `403 forbidden`: plans above Free are the operator's). Each change is in the audit trail. Needs a write token.
         */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/projects/{slug}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's keys
         * @description The project's keys in creation order, revoked and expired ones included; never their secrets.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create a key
         * @description Creates a key of the project, held to the project's plan and, when given, to limits of its own below the plan's. The secret is in this answer only. Needs a write token and a developer or an owner. Every field of the body is optional, and so is the body: without one (no body at all, as `curl -X POST` sends) the key has no label, no expiry and the plan's limits. A project holds as many keys in use (neither revoked nor expired) as its plan allows: Free 10, Pro 50, Business 200, Enterprise 1,000; beyond that the answer is `409 key_limit_reached` (revoke one first). Rolling a key is a replacement and is not counted against it. With an `Idempotency-Key`, a retry with the same key and body within 24 hours answers the first `201` again, secret and all (with `Idempotent-Replayed: true`), instead of creating a second key: see Idempotent creation.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a key
         * @description One key of the project, revoked and expired ones included; never its secret.
         */
        get: operations["getKey"];
        put?: never;
        post?: never;
        /**
         * Revoke a key
         * @description The key stops working at once. A key already revoked is `404 not_found`. Needs a write token and a developer or an owner.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        /**
         * Change a key's label or own limits
         * @description Changes the fields given and leaves the others: `label` (null clears it), and the key's own limits `perMinute` and `perDay` (at most the project's; null clears one, so that the project's limit alone holds). An empty object changes nothing and answers the key. Running servers apply new limits from the key's next request. A revoked or expired key cannot be changed (`409 conflict`). Needs a write token and a developer or an owner.
         */
        patch: operations["updateKey"];
        trace?: never;
    };
    "/projects/{slug}/keys/{keyId}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll a key
         * @description Replaces a key, as Stripe rolls keys: a new key with the same label, expiry and own limits is created, and the old one keeps working for `overlapSeconds` (default one day, at most seven) and then expires. A key is rolled once: a second roll, even at the same moment from another client, and a roll of a revoked or expired key are `409 conflict`. Needs a write token and a developer or an owner. With an `Idempotency-Key`, a retry with the same key and body within 24 hours answers the first `201` again, secret and all (with `Idempotent-Replayed: true`), instead of a `409 conflict`: see Idempotent creation.
         */
        post: operations["rollKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/keys/{keyId}/unban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a key's ban
         * @description Ends the key's temporary ban at once, on every instance, and records who lifted it in the audit trail. The key's windows are not reset: a key whose limit is still spent is refused (`429 rate_limited`) until it resets, and a key that keeps sending past its own limit is banned again. A key that is not banned is answered as it is (nothing to lift); a revoked key is `409 conflict`. Needs a write token and an owner.
         */
        post: operations["unbanKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit trail
         * @description What members, operators, access tokens and the service's background checks did in the project, and its members' sign-ins, newest first. `via` says through which door: `dashboard`, `cli`, `service`, or `token:<id>` for an access token. Each event's client `address` is for owners: other roles read events without the field.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's members
         * @description The project's members with their roles, owners first, then by email.
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description The member loses the project at once and their dashboard sessions end. Invitations they made that nobody accepted yet are revoked in the same change. A project always keeps an owner: removing the last one is `409 conflict`, even when two owners remove each other at the same moment. Needs a write token and an owner.
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/members/{memberId}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a member's role
         * @description Gives the member another role (owner, developer or viewer), as the dashboard's Members tab does. A project always keeps an owner: demoting the last one is `409 conflict`. A demoted owner's invitations that nobody accepted yet are revoked in the same change. Needs a write token and an owner.
         */
        post: operations["changeMemberRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pending invitations
         * @description The invitations nobody accepted yet and not expired, newest first, with who made them (null: the operator's command line). Never their links. Needs an owner.
         */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite someone by mail
         * @description Mails a single-use link, valid seven days, to the address; whoever opens it joins with the role (an account already a member keeps a higher role). The answer never holds the link. An address that is a member already is `409 conflict`; a project sends at most 10 invitations a minute and 100 a day (`429 rate_limited`). Needs a write token and an owner.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an invitation
         * @description Its link stops working at once. An invitation accepted, revoked or expired is `404 not_found`. Needs a write token and an owner.
         */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/invitations/{invitationId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an invitation again
         * @description Mails a pending invitation whose mail was given up (`delivery.state` is `failed`) again, with a new link valid 7 days from now; the old link stops working. Recorded as `invitation_resent` and counted in the project's invitation limits (`429`). An invitation whose mail is still queued or was delivered is `409 conflict`; one accepted, revoked or expired is `404 not_found`; a full mail outbox is `503`. Needs a write token and an owner.
         */
        post: operations["resendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get usage
         * @description The project's requests by period, as the Usage chart shows them: the last 24 hours by hour, or the last 30 days by day (UTC), the current one included; counts by outcome and latency percentiles (upper bounds of 25 % buckets), optionally for one key.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the request log
         * @description The API requests made with the project's keys, newest first, within its plan's retention, with the Requests tab's filters. With `Accept: application/x-ndjson` every matching request is streamed, one JSON object a line (no paging: `limit` and `cursor` are refused), read a page of 256 at a time as the client reads them. At most 2 exports of one project (this API's and the dashboard's together) and 1 of one token stream at once on an instance: one more is `429 too_many_exports` with `Retry-After: 5`.
         */
        get: operations["listRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's custom domains
         * @description The project's custom domains in the order they were added, as the dashboard shows them: the DNS records to create with what was seen of each, the state (`pending`, `verified`, `failed`, or `suspended` below Pro), the reason, warnings and which one is primary.
         */
        get: operations["listDomains"];
        put?: never;
        /**
         * Add a custom domain
         * @description Adds a custom domain to a project on Pro or above (else `403 plan_required`) and checks its records at once. A name the project has already is `409 domain_exists` (of two adds of one name at the same moment, one is added); beyond the plan's number of domains `403 domain_limit_reached`; more than 30 adds per project per hour `429 rate_limited`. Needs a write token and an owner.
         */
        post: operations["createDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/domains/{hostname}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a custom domain
         * @description The domain stops being served at once, on every instance. Needs a write token and an owner.
         */
        delete: operations["deleteDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/domains/{hostname}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a domain now
         * @description Looks up the domain's records now and stores what was seen. Only a DNS answer changes the state: when DNS gives none, the state is kept and `checkError` says so. At most one check per domain every 10 seconds (else `429 rate_limited`). Needs a write token and an owner.
         */
        post: operations["checkDomainNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/domains/{hostname}/primary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a domain primary
         * @description Every other address of the project redirects to this domain. A domain not verified is `409 conflict`. Needs a write token and an owner.
         */
        post: operations["makeDomainPrimary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's access tokens
         * @description Every access token of the token's account, newest first, revoked and expired ones included; never a secret. Only through a token made to manage tokens (`managesTokens`), else `403 insufficient_scope`.
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Make an access token
         * @description Makes an access token of the account, never reaching more than the token that asks: its projects among that token's, read only through a read token, expiring no later than it. Only through a token made to manage tokens (`managesTokens`), else `403 insufficient_scope`. The secret is in this answer only. An account holds at most 50 active tokens (`409 conflict`); a project that requires two-factor sign-in refuses a token for an account without it (`403 two_factor_required`). With an `Idempotency-Key`, a retry with the same key and body within 24 hours answers the first `201` again, secret and all (with `Idempotent-Replayed: true`), instead of making a second token: see Idempotent creation.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an access token
         * @description The token stops working at once, on every instance, from its next request; a token may revoke itself. Only through a token made to manage tokens, else `403 insufficient_scope`; a token that is not the account's, or is already revoked, is `404`.
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document, as JSON
         * @description The OpenAPI document of the management API. Public, limited per client address.
         */
        get: operations["getManageDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The account's role in the project.
         * @enum {string}
         */
        Role: "owner" | "developer" | "viewer";
        /** @enum {string} */
        Plan: "free" | "pro" | "business" | "enterprise";
        /**
         * Format: date-time
         * @description An instant, in UTC (ISO 8601).
         */
        Instant: string;
        Limits: {
            /** Format: int64 */
            perMinute: bigint;
            /** Format: int64 */
            perDay: bigint;
        };
        /** @description Limits of the key's own, below its project's; null where it has none. */
        OwnLimits: {
            /** Format: int64 */
            perMinute: bigint | null;
            /** Format: int64 */
            perDay: bigint | null;
        };
        Project: {
            slug: string;
            name: string;
            plan: components["schemas"]["Plan"];
            role: components["schemas"]["Role"];
            limits: components["schemas"]["Limits"];
            createdAt: components["schemas"]["Instant"];
            /** @description Whether members need two-factor sign-in; in the answers about one project. */
            twoFactorRequired?: boolean;
        };
        AccessToken: {
            id: string;
            name: string;
            /** @description The secret's first characters, to tell tokens apart. */
            prefix: string;
            /** @enum {string} */
            scope: "read" | "write";
            /** @description Whether it may list, make and revoke the account's tokens through this API. */
            managesTokens: boolean;
            /** @description The slugs of the projects it reaches that the account still belongs to. */
            projects: string[];
            createdAt: components["schemas"]["Instant"];
            expiresAt: components["schemas"]["Instant"];
            revokedAt: components["schemas"]["Instant"] | null;
            lastUsedAt: components["schemas"]["Instant"] | null;
        };
        AccessTokenList: {
            data: components["schemas"]["AccessToken"][];
        };
        CreatedAccessToken: {
            token: components["schemas"]["AccessToken"];
            /** @description The token itself, shown only in this answer. */
            secret: string;
        };
        NewAccessToken: {
            name: string;
            /** @enum {string} */
            scope: "read" | "write";
            projects: string[];
            /**
             * Format: int32
             * @enum {integer}
             */
            expiresInDays: 7 | 30 | 90 | 365;
            managesTokens?: boolean;
        };
        NewProject: {
            /** @description Lower-case letters, digits and dashes, neither first nor last a dash. */
            slug: string;
            /** @description A name for people, 1 to 100 characters and not only spaces: no control characters, and no character a reader cannot see or that reorders what is shown (`400 invalid_body` naming it), as `NewKey`'s label. */
            name: string;
        };
        ProjectChange: {
            /** @description A name for people, 1 to 100 characters and not only spaces: no control characters, and no character a reader cannot see or that reorders what is shown (`400 invalid_body` naming it), as `NewKey`'s label. */
            name?: string;
            twoFactorRequired?: boolean;
            plan?: components["schemas"]["Plan"];
        };
        ProjectList: {
            data: components["schemas"]["Project"][];
        };
        Key: {
            id: string;
            label: string | null;
            /** @description The first characters of the secret, to tell keys apart. */
            prefix: string | null;
            /** @enum {string} */
            environment: "live" | "test";
            /**
             * @description The key's state now, the same word in every door (API, command line, dashboard): `revoked`; `expired`; `banned` until `stateUntil` (refused with `429 temporarily_banned`); `rolling` once rolled, working until `stateUntil`, when the overlap ends; else `active`.
             * @enum {string}
             */
            state: "active" | "rolling" | "expired" | "revoked" | "banned";
            /** @description When the state ends, for `rolling` (the key's expiry) and `banned` (the ban's end); else null. */
            stateUntil: components["schemas"]["Instant"] | null;
            limits: components["schemas"]["Limits"];
            ownLimits: components["schemas"]["OwnLimits"];
            createdAt: components["schemas"]["Instant"];
            expiresAt: components["schemas"]["Instant"] | null;
            revokedAt: components["schemas"]["Instant"] | null;
            lastUsedAt: components["schemas"]["Instant"] | null;
            rolledAt: components["schemas"]["Instant"] | null;
            /** @description The key that replaced this one. */
            rolledTo: string | null;
            /** @description While the key is banned for refusals of its own limits, when the ban ends (its requests are refused with `429 temporarily_banned` until then); null when it is not banned. */
            bannedUntil: components["schemas"]["Instant"] | null;
        };
        NewKey: {
            /** @description A name for people: no control characters (C0, DEL or C1), and no character a reader cannot see or that reorders what is shown (a zero-width space, U+202E, …; `400 invalid_body` naming it). Emoji are fine. The pattern holds every such character up to U+FFFF but the zero-width joiner and U+FE0F, which the server takes only inside an emoji sequence; invisible characters beyond U+FFFF (tags outside a flag, …) are refused by the server too. */
            label?: string;
            expiresAt?: components["schemas"]["Instant"];
            /**
             * Format: int64
             * @description The key's own limit per minute, at most its project's.
             */
            perMinute?: bigint;
            /**
             * Format: int64
             * @description The key's own limit per day, at most its project's.
             */
            perDay?: bigint;
        };
        KeyRoll: {
            /**
             * Format: int32
             * @description How long the old key keeps working (default 86400, one day).
             */
            overlapSeconds?: number;
        };
        KeyChange: {
            /** @description The new label, as `NewKey`'s; null clears it. */
            label?: string | null;
            /**
             * Format: int64
             * @description The key's own limit per minute, at most its project's; null clears it.
             */
            perMinute?: bigint | null;
            /**
             * Format: int64
             * @description The key's own limit per day, at most its project's; null clears it.
             */
            perDay?: bigint | null;
        };
        CreatedKey: {
            key: components["schemas"]["Key"];
            /** @description The key itself, shown only in this answer. */
            secret: string;
        };
        RolledKey: {
            key: components["schemas"]["Key"];
            secret: string;
            previous: components["schemas"]["Key"];
        };
        KeyPage: {
            data: components["schemas"]["Key"][];
            hasMore: boolean;
            next: string | null;
        };
        LoggedRequest: {
            id: string;
            at: components["schemas"]["Instant"];
            requestId: string;
            keyId: string;
            keyLabel: string | null;
            operation: string;
            method: string;
            /** @description The request target, secrets redacted. */
            path: string;
            /** Format: int32 */
            status: number;
            code: string | null;
            /** @description The Error body's message the client received; null for a success. */
            message: string | null;
            /**
             * Format: int32
             * @description How many requests this row stands for: the refusals (429) of one key within one second are kept as one row, the first of them, with their number; 1 for every other request.
             */
            count: number;
            /** Format: double */
            latencyMs: number;
            address: string;
        };
        MemberList: {
            data: {
                /** @description The account's id. */
                id: string;
                email: string;
                role: components["schemas"]["Role"];
                since: components["schemas"]["Instant"];
            }[];
        };
        /**
         * @example {
         *       "id": "acc_1f2e3d4c5b6a7988",
         *       "email": "ada@example.com",
         *       "role": "developer",
         *       "since": "2026-01-31T09:30:00.000Z"
         *     }
         */
        Member: {
            /** @description The account's id. */
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            since: components["schemas"]["Instant"];
        };
        RoleChange: {
            role: components["schemas"]["Role"];
        };
        NewInvitation: {
            /**
             * @description Where the link is mailed; whoever holds this mailbox may join. An address as mail programs write it, `local@domain.tld`: a dot-atom local part (letters, digits and ``!#$%&'*+/=?^_`{|}~-``), a domain of two labels at least, each in ASCII or Unicode; one whose parts mix scripts or imitate Latin letters is refused (`400`), as it could pass for another person's address.
             * @example ada@example.com
             */
            email: string;
            role: components["schemas"]["Role"];
        };
        /**
         * @example {
         *       "id": "inv_8c2f4e6a1b3d5f70",
         *       "email": "ada@example.com",
         *       "role": "developer",
         *       "invitedBy": {
         *         "id": "acc_0a1b2c3d4e5f6071",
         *         "email": "owner@example.com"
         *       },
         *       "createdAt": "2026-01-31T09:30:00.000Z",
         *       "expiresAt": "2026-02-07T09:30:00.000Z",
         *       "delivery": {
         *         "state": "sent",
         *         "attempts": 1
         *       }
         *     }
         */
        Invitation: {
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            /** @description The owner who made it; null when the operator's command line made it. */
            invitedBy: {
                id: string;
                email: string;
            } | null;
            createdAt: components["schemas"]["Instant"];
            expiresAt: components["schemas"]["Instant"];
            /** @description Where the invitation's latest mail is: `queued` while the service tries to hand it to the mail server (again after a refusal, up to five attempts over about 37 minutes), `sent` once the mail server accepted it, `failed` once given up: the invitee never got the link, and an owner sends it again (a new link) from the dashboard's Members tab. Null when no mail was sent for it (the operator's command line printed its link), or its mail's record has been purged (14 days). */
            delivery: components["schemas"]["InvitationDelivery"] | null;
        };
        InvitationDelivery: {
            /** @enum {string} */
            state: "queued" | "sent" | "failed";
            /**
             * Format: int32
             * @description Attempts made so far at handing the mail over (0 before the first).
             */
            attempts: number;
        };
        InvitationPage: {
            data: components["schemas"]["Invitation"][];
            hasMore: boolean;
            next: string | null;
        };
        Usage: {
            /** @enum {string} */
            period: "hour" | "day";
            data: {
                start: components["schemas"]["Instant"];
                /** Format: int64 */
                total: bigint;
                /** Format: int64 */
                ok: bigint;
                /** Format: int64 */
                clientErrors: bigint;
                /** Format: int64 */
                rateLimited: bigint;
                /** Format: int64 */
                serverErrors: bigint;
                /** Format: double */
                p50Ms: number | null;
                /** Format: double */
                p99Ms: number | null;
            }[];
        };
        RequestPage: {
            data: components["schemas"]["LoggedRequest"][];
            hasMore: boolean;
            next: string | null;
        };
        AuditEvent: {
            id: string;
            at: components["schemas"]["Instant"];
            /** @description The account's email, `operator` for the command line, `service` for background checks. */
            actor: string;
            /** @description What was done (`key_created`, `key_rolled`, `key_revoked`, …). */
            action: string;
            target: string | null;
            /** @description The client address the action came from; null from the command line. Present only for the project's owners: a developer's or a viewer's token reads events without it, as the dashboard's Activity tab shows addresses to owners only. */
            address?: string | null;
            /** @description `dashboard`, `cli`, `service`, or `token:<id>`; null for older events. */
            via: string | null;
        };
        AuditPage: {
            data: components["schemas"]["AuditEvent"][];
            hasMore: boolean;
            next: string | null;
        };
        NewDomain: {
            /**
             * @description The domain, e.g. `docs.example.com`: two labels at least, upper case, a trailing dot and Unicode accepted. A name that is no domain once converted to ASCII (IDNA), an IP address, a public suffix alone, or a name of this service is refused (`400`).
             * @example docs.example.com
             */
            hostname: string;
        };
        DomainRecord: {
            /**
             * @description `ALIAS` stands for an ALIAS or ANAME record (an apex cannot hold a CNAME).
             * @enum {string}
             */
            type: "CNAME" | "ALIAS" | "TXT";
            name: string;
            value: string;
            /** @description Whether the last check saw the record as it should be. */
            ok: boolean;
            /** @description What the last check saw at the name instead. */
            seen: string[];
        };
        Domain: {
            hostname: string;
            /**
             * @description `pending` until its records are seen (checked with backoff for 48 hours), `verified` (served), `failed`, or `suspended` while the project is below Pro.
             * @enum {string}
             */
            state: "pending" | "verified" | "failed" | "suspended";
            /** @description Why it is not verified, or what is wrong with it, in words a person can act on. */
            reason: string | null;
            /** @description The address every other address of the project redirects to. */
            primary: boolean;
            apex: boolean;
            /** @description The DNS records to create at the DNS provider. */
            records: components["schemas"]["DomainRecord"][];
            warnings: string[];
            /** @description When the last check got no DNS answer, why ("Could not check … will retry"). */
            checkError: string | null;
            checkedAt: components["schemas"]["Instant"] | null;
            verifiedAt: components["schemas"]["Instant"] | null;
        };
        DomainPage: {
            data: components["schemas"]["Domain"][];
            hasMore: boolean;
            next: string | null;
        };
        /** @description The body of every error response. */
        Error: {
            /**
             * @description Machine-readable error code, from the closed catalogue of the service (the same as the Pet Store API's).
             * @enum {string}
             */
            code: "unauthorized" | "forbidden" | "insufficient_scope" | "plan_required" | "domain_limit_reached" | "two_factor_required" | "domain_exists" | "key_limit_reached" | "conflict" | "invalid_json" | "invalid_body" | "invalid_parameter" | "invalid_cursor" | "invalid_request" | "not_found" | "method_not_allowed" | "request_timeout" | "gone" | "payload_too_large" | "uri_too_long" | "unsupported_media_type" | "idempotency_in_progress" | "idempotency_key_reused" | "rate_limited" | "temporarily_banned" | "too_many_connections" | "too_many_exports" | "headers_too_large" | "not_implemented" | "service_unavailable" | "internal_error";
            /** @description Human-readable description; for people, may change. Text echoed from the request is quoted with its control characters (and the other characters that could hide in a message: C1 controls, zero-width and direction marks, separators, lone surrogates) written as `\uXXXX`, and cut so that the message never exceeds 1,000 characters (the last one then `…`). */
            message: string;
            /**
             * Format: int32
             * @description The HTTP status code of the response.
             */
            status: number;
            /** @description The offending body field, query or path parameter, or header, when there is one, its control characters written as `\uXXXX` as in `message`; cut to 200 characters (the last one then `…`). */
            param?: string;
            /** @description The `X-Request-Id` of the request. */
            requestId?: string;
        };
    };
    responses: {
        /** @description The request is invalid (`invalid_json`, `invalid_body`, `invalid_parameter`, `invalid_cursor`). */
        BadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The access token is missing or invalid (`unauthorized`). */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The token may only read (`insufficient_scope`), the role does not allow it (`forbidden`), the project requires two-factor sign-in and the token's account has it off (`two_factor_required`), or the project's plan does not allow it (`plan_required`, `domain_limit_reached`). */
        Forbidden: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such project for this token, or no such key (`not_found`). */
        NotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The change conflicts with the current state (`conflict`): a key already rolled, revoked or expired; the project's plan's number of keys in use reached (`key_limit_reached`); the last owner of a project; an address that is a member already; a domain not verified yet; the project has the domain already (`domain_exists`); a request with the same `Idempotency-Key` still being processed (`idempotency_in_progress`). */
        Conflict: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The `Idempotency-Key` was already used by this access token with another request: another body, another operation or another key or project (`idempotency_key_reused`). */
        IdempotencyKeyReused: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is larger than 64 KiB (`payload_too_large`). */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is not sent as `application/json` (`unsupported_media_type`). */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Over the rate limit (`rate_limited`, `temporarily_banned`), or, for an export of the request log, over the exports streaming at once (`too_many_exports`). */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected error (`internal_error`). */
        InternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A dependency is unavailable (`service_unavailable`). */
        ServiceUnavailable: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description The project's slug. */
        Slug: string;
        /** @description The key's id. */
        KeyId: string;
        /** @description The custom domain, as listed (lower case, punycode). */
        Hostname: string;
        /** @description The `next` of the previous page. */
        DomainCursor: string;
        /** @description How many items a page holds at most (default 20). */
        Limit: number;
        /** @description How many items a page holds at most (default 50). */
        LogLimit: number;
        /** @description The `next` of the previous page. */
        Cursor: string;
        /** @description Only events at or after this instant. */
        Since: string;
        /** @description Only events before this instant (with `since`, a time range). */
        Until: string;
        /** @description The member's account id (the `id` of a member in the list). */
        MemberId: string;
        /** @description The invitation's id. */
        InvitationId: string;
        /**
         * @description A unique value chosen by the client (a UUID is a good choice) that makes retrying this request safe for 24 hours. 1 to 255 printable ASCII characters, no spaces; anything else is `400 invalid_parameter`.
         * @example 5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55
         */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Requests allowed in the reported window: the window (minute or day) closer to exhaustion, or on a `429` the window that refused (the minute window during a ban).
         * @example 60
         */
        "X-RateLimit-Limit": bigint;
        /**
         * @description Requests left in the reported window after this one; `0` on every `429`.
         * @example 42
         */
        "X-RateLimit-Remaining": bigint;
        /**
         * @description When the reported window resets, as Unix time in seconds (rounded up); during a ban, when the ban ends.
         * @example 1767268860
         */
        "X-RateLimit-Reset": bigint;
        /**
         * @description The quota policies that hold for the request, as the IETF draft RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers): one item per window, with quota `q` and window `w` in seconds. With an access token, `minute` and `day` are its account's ceiling across all its tokens and `token-minute` and `token-day` the token's own limits; without a valid token, `minute` and `day` are the client address's.
         * @example "minute";q=60;w=60, "day";q=1000;w=86400
         */
        "RateLimit-Policy": string;
        /**
         * @description The state of the reported window, as the IETF draft RateLimit field: remaining requests `r` and seconds until reset `t` (rounded up), of whichever window of `RateLimit-Policy` is closest to running out.
         * @example "minute";r=42;t=18
         */
        RateLimit: string;
        /**
         * @description Identifier of this request, also written to the service's logs; quote it when asking for help. It is the client's own `X-Request-Id` when the request sent one of 1 to 128 characters from `A-Z a-z 0-9 . _ : -` that does not look like an API key, else one generated by the service.
         * @example 3f1c9a52-8d4e-4b7a-9c61-2e5d7f0a1b34
         */
        "X-Request-Id": string;
        /**
         * @description Whole seconds to wait before retrying, rounded up: until the refusing window resets or, for `temporarily_banned`, until the ban ends. Retrying after exactly this long is never too early.
         * @example 18
         */
        "Retry-After": number;
        /**
         * @description The authentication scheme to use.
         * @example Bearer
         */
        "WWW-Authenticate": string;
        /**
         * @description Always names `Origin` (with `Accept-Encoding` on the docs page): whether the CORS headers are present depends on the request's `Origin`, so a shared cache keeps one answer per origin.
         * @example Origin
         */
        Vary: string;
        /**
         * @description Present only when the request's `Origin` is one this deployment allows (`PETSTORE_CORS_ORIGINS`): that origin, repeated exactly. Absent for any other origin and when there is no `Origin`. `Access-Control-Allow-Credentials` is never sent: keys are bearer tokens, never cookies.
         * @example https://app.example.com
         */
        "Access-Control-Allow-Origin": string;
        /**
         * @description Sent with `Access-Control-Allow-Origin`: the response headers a script on that origin may read.
         * @example X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Link, Location, X-Request-Id, Idempotent-Replayed, Deprecation, Sunset
         */
        "Access-Control-Expose-Headers": "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Link, Location, X-Request-Id, Idempotent-Replayed, Deprecation, Sunset";
        /**
         * @description Present, with the value `true`, only when this response replays an earlier one.
         * @example true
         */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The projects. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewProject"];
            };
        };
        responses: {
            /** @description The project, with the account as its owner. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectChange"];
            };
        };
        responses: {
            /** @description The project as changed. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listKeys: {
        parameters: {
            query?: {
                /** @description How many items a page holds at most (default 20). */
                limit?: components["parameters"]["Limit"];
                /** @description The `next` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value chosen by the client (a UUID is a good choice) that makes retrying this request safe for 24 hours. 1 to 255 printable ASCII characters, no spaces; anything else is `400 invalid_parameter`.
                 * @example 5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["NewKey"];
            };
        };
        responses: {
            /** @description The key and its secret, shown once. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The key's id. */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The key's id. */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The key's id. */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyChange"];
            };
        };
        responses: {
            /** @description The key as changed. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rollKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value chosen by the client (a UUID is a good choice) that makes retrying this request safe for 24 hours. 1 to 255 printable ASCII characters, no spaces; anything else is `400 invalid_parameter`.
                 * @example 5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The key's id. */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["KeyRoll"];
            };
        };
        responses: {
            /** @description The new key with its secret, shown once, and the old key with its new expiry. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolledKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unbanKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The key's id. */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, no longer banned. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description How many items a page holds at most (default 50). */
                limit?: components["parameters"]["LogLimit"];
                /** @description The `next` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only events at or after this instant. */
                since?: components["parameters"]["Since"];
                /** @description Only events before this instant (with `since`, a time range). */
                until?: components["parameters"]["Until"];
                /** @description Only the events of this actor: a member's email (in any case), `operator` for the command line or `service` for the background checks. No control character, `%` or U+FFFD: a value whose percent-encoding is no UTF-8 is refused rather than read as other text. */
                actor?: string;
                /** @description Only the events of this action (the values an event's `action` takes). */
                action?: "sign_in" | "password_changed" | "password_reset" | "project_created" | "project_renamed" | "plan_changed" | "key_created" | "key_revoked" | "domain_added" | "domain_checked" | "domain_verified" | "domain_primary" | "domain_removed" | "member_added" | "member_removed" | "role_changed" | "invitation_created" | "invitation_revoked" | "invitation_resent" | "two_factor_enabled" | "two_factor_disabled" | "two_factor_required" | "invitation_accepted" | "key_rolled" | "key_updated" | "key_unbanned" | "access_token_created" | "access_token_revoked" | "account_created" | "account_removed" | "signed_out_everywhere" | "recovery_codes_regenerated" | "passkey_added" | "passkey_removed";
            };
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The member's account id (the `id` of a member in the list). */
                memberId: components["parameters"]["MemberId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The removed member, with the role they held. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The member's account id (the `id` of a member in the list). */
                memberId: components["parameters"]["MemberId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoleChange"];
            };
        };
        responses: {
            /** @description The member with the new role. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                /** @description How many items a page holds at most (default 20). */
                limit?: components["parameters"]["Limit"];
                /** @description The `next` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of invitations. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "role": "developer"
                 *     }
                 */
                "application/json": components["schemas"]["NewInvitation"];
            };
        };
        responses: {
            /** @description The invitation, without its link. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The invitation's id. */
                invitationId: components["parameters"]["InvitationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked invitation. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resendInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The invitation's id. */
                invitationId: components["parameters"]["InvitationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitation, its new mail queued. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description `hour` (default) or `day`. */
                period?: "hour" | "day";
                /** @description Only this key's requests (its id). */
                key?: string;
            };
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The periods, oldest first. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRequests: {
        parameters: {
            query?: {
                /** @description How many items a page holds at most (default 50). */
                limit?: components["parameters"]["LogLimit"];
                /** @description The `next` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only events at or after this instant. */
                since?: components["parameters"]["Since"];
                /** @description Only events before this instant (with `since`, a time range). */
                until?: components["parameters"]["Until"];
                /** @description Only requests made with this key (its id). */
                key?: string;
                /** @description `2xx`, `4xx` (429 included), `429`, `5xx`, or one status code. */
                status?: string;
                /** @description Only requests of this operation (`listPets`, `createPet`, …). */
                operation?: string;
                /** @description The request with this `X-Request-Id`. */
                requestId?: string;
            };
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of requests, or all of them as NDJSON. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestPage"];
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDomains: {
        parameters: {
            query?: {
                /** @description How many items a page holds at most (default 20). */
                limit?: components["parameters"]["Limit"];
                /** @description The `next` of the previous page. */
                cursor?: components["parameters"]["DomainCursor"];
            };
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of domains. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewDomain"];
            };
        };
        responses: {
            /** @description The domain, as its first check left it. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The custom domain, as listed (lower case, punycode). */
                hostname: components["parameters"]["Hostname"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain as it was before it was removed. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    checkDomainNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The custom domain, as listed (lower case, punycode). */
                hostname: components["parameters"]["Hostname"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain as the check left it. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    makeDomainPrimary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's slug. */
                slug: components["parameters"]["Slug"];
                /** @description The custom domain, as listed (lower case, punycode). */
                hostname: components["parameters"]["Hostname"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The primary domain. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value chosen by the client (a UUID is a good choice) that makes retrying this request safe for 24 hours. 1 to 255 printable ASCII characters, no spaces; anything else is `400 invalid_parameter`.
                 * @example 5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewAccessToken"];
            };
        };
        responses: {
            /** @description The token and its secret, shown once. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedAccessToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token's id (the `id` of a token in the list, never its secret). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token as revoked. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getManageDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Vary: components["headers"]["Vary"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
}

/** A project as the management API shows it. */
export type ManagedProject = components['schemas']['Project'];
/** An API key as the management API shows it (never its secret). */
export type ManagedKey = components['schemas']['Key'];
/** An event of a project's audit trail. */
export type AuditEvent = components['schemas']['AuditEvent'];
