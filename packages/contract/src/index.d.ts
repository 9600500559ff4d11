// Generated from openapi/petstore.yaml by scripts/generate-contract-types.ts: do not edit.
// Run `npm run generate:types` after changing the contract; the tests fail while this file is stale.

export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pets
         * @description Returns pets by ascending `id`, at most `limit` of them, optionally only those with the given
         *     `status`. Paging is by key: when more results exist, the `Link` header holds the URL of the next
         *     page (`rel="next"`); the last page has no `Link` header.
         *
         *     Validation is strict: an unknown query parameter, a repeated parameter or a value of the wrong
         *     type is `400 invalid_parameter` (no coercion: `limit=1.0` and `limit=ten` are refused). A cursor is
         *     bound to the `status` filter it was issued for: sending it with another `status` (or with none)
         *     is `400 invalid_cursor`, as is an altered cursor.
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add a pet
         * @description Adds a pet and returns it with its assigned `id`. The `201` is sent only once the pet is stored
         *     durably.
         *
         *     The body must be sent as `application/json` (`charset=utf-8` allowed, anything else is `415`), be at
         *     most 64 KiB (else `413`) and be a JSON object with exactly the fields of `NewPet` (else `400
         *     invalid_body`, with `param` naming the field).
         *
         *     With an `Idempotency-Key`, a retry with the same key and body within 24 hours replays the first
         *     `201` (with `Idempotent-Replayed: true`) instead of adding a second pet; the same key with another
         *     body is `422 idempotency_key_reused`, and a retry while the first request is still running is `409
         *     idempotency_in_progress`. Requests that fail validation are not remembered.
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a pet (deprecated)
         * @deprecated
         * @description **Deprecated: this operation will be removed on 5 December 2030 (2030-12-05T00:00:00Z).** Use
         *     `GET /pets` with the `status` filter instead.
         *
         *     Returns one pet by its identifier. Every response of this operation, errors included, carries
         *     `Deprecation`, `Sunset` and a `Link` to the deprecation notice (`rel="deprecation"`) and to the
         *     replacement (`rel="successor-version"`). From the sunset instant on it answers `410 gone`.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List store orders (not available yet)
         * @description Reserved for store orders. It is not available yet: after authentication and rate limiting it answers `501 not_implemented`. Other store and category paths do not exist (`404`).
         */
        get: operations["listStoreOrders"];
        put?: never;
        post?: never;
        delete?: never;
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
         * @description The OpenAPI document of this API, as JSON, with 64-bit integers written digit for digit. Public: no key, limited per client address (1,200 requests a minute, 100,000 a day, shared with the docs page).
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Answers `200` while the process is running. Public: no key, limited per client address in a bucket of its own shared only with `/readyz` and `/metrics` (6,000 requests a minute), far above any load balancer's probe rate, so traffic of other kinds never makes a probe fail.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Answers `200` when the service can take traffic: its database commits a write (a one-row probe, reused for at most a second), the file system holding an embedded database has room, and its rate-limit store answers; else `503` naming what failed. Answers within about 2 s whatever the dependencies do. Public: no key, limited per client address like `/healthz`.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Metrics in the Prometheus text exposition format. Public: no key, limited per client address like `/healthz`.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference page
         * @description A human-readable reference of this API, rendered from this document. Public: no key, limited per client address (1,200 requests a minute, 100,000 a day, shared with `/v1/openapi.json` and the page's scripts); a page view takes about 20 requests. Revalidate with `If-None-Match`.
         */
        get: operations["getDocs"];
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
         * @description Availability of a pet.
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description The pet's name: 1 to 200 characters (Unicode code points), not only whitespace, no control characters (U+0000 to U+001F, U+007F to U+009F).
         * @example Biscuit
         */
        PetName: string;
        /**
         * Format: int64
         * @description Identifier of the category the pet belongs to. Any signed 64-bit integer, carried digit for digit over the whole range as a JSON number; a value out of range is refused, never rounded.
         * @example 9223372036854776000
         */
        CategoryId: bigint;
        /**
         * Format: int64
         * @description Identifier assigned by the service on creation, from 1 upwards.
         * @example 42
         */
        PetId: bigint;
        /** @description A pet to add. Fields other than these are refused. */
        NewPet: {
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            /** @description Optional, with no default. When absent the pet has no status and the field is omitted (never `null`). */
            status?: components["schemas"]["PetStatus"];
        };
        /** @description A pet, as stored. `status` is omitted when the pet was created without one. */
        Pet: {
            id: components["schemas"]["PetId"];
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            /** @description Omitted (never `null`) when the pet was created without a status. */
            status?: components["schemas"]["PetStatus"];
        };
        /** @description Pets by ascending `id`. */
        Pets: components["schemas"]["Pet"][];
        /** @description The body of every error response. */
        Error: {
            /**
             * @description Machine-readable error code, from the closed catalogue in the introduction.
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
        /** @description The request is invalid: `invalid_json` or `invalid_body` for the body, `invalid_parameter` for a query parameter, path parameter or header, `invalid_cursor` for a paging cursor. */
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
        /** @description The API key is missing or invalid (`unauthorized`). */
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
        /** @description A request with the same `Idempotency-Key` is still being processed (`idempotency_in_progress`). */
        IdempotencyInProgress: {
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
        /** @description The body is not sent as `application/json` in UTF-8, or is compressed (`unsupported_media_type`). */
        UnsupportedMediaType: {
            headers: {
                /** @description Sent when the body was refused for its `Content-Encoding`; bodies must be uncompressed. */
                "Accept-Encoding"?: "identity";
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
        /** @description The `Idempotency-Key` was already used with a different body (`idempotency_key_reused`). */
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
        /** @description Over the rate limit (`rate_limited`), or blocked for ignoring it (`temporarily_banned`). Wait for `Retry-After` seconds; the rate-limit headers describe the window that refused. (A connection beyond its address's connection cap gets `429 too_many_connections` before any request on it is read: not an answer of this operation, it carries only `Retry-After: 1` and `X-Request-Id`.) */
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
        /** @description An unexpected failure (`internal_error`); the message holds no internals. */
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
        /** @description The operation is listed but not available yet (`not_implemented`). */
        NotImplemented: {
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
        /** @description A dependency of the service is unavailable (`service_unavailable`); retry with backoff. */
        ServiceUnavailable: {
            headers: {
                /**
                 * @description Present when the database is unavailable; then `1`.
                 * @example 1
                 */
                "Retry-After"?: number;
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
        /**
         * @description A unique value chosen by the client (a UUID is a good choice) that makes retrying this request safe for 24 hours. 1 to 255 printable ASCII characters, no spaces; anything else is `400 invalid_parameter`.
         * @example 5f0c7a1e-3c2d-4b8e-9a41-7d2f0e6b1c55
         */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Requests allowed in the reported window: the window (minute or day, of the project or of the key) closer to exhaustion, or on a `429` the window that refused (the minute window during a ban).
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
         * @description The quota policies that hold for the request, as the IETF draft RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers): one item per window, with quota `q` and window `w` in seconds. `minute` and `day` are the plan's (of the key's project, or of a key without one); `key-minute` and `key-day` are a project key's own lower limits, when it has them.
         * @example "minute";q=60;w=60, "day";q=1000;w=86400
         */
        "RateLimit-Policy": string;
        /**
         * @description The state of the reported window, as the IETF draft RateLimit field: remaining requests `r` and seconds until reset `t` (rounded up).
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
         * @description The URL of the next page (RFC 8288, `rel="next"`), present only when more results exist. It keeps `limit` and `status` and adds the cursor.
         * @example </v1/pets?limit=20&status=sold&cursor=eyJpZCI6MjB9>; rel="next"
         */
        NextPageLink: string;
        /**
         * @description The path of the created pet.
         * @example /v1/pets/42
         */
        Location: string;
        /**
         * @description Present, with the value `true`, only when this response replays an earlier one.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description When this operation was deprecated, as `@` and Unix time in seconds (RFC 9745).
         * @example @1767225600
         */
        Deprecation: string;
        /**
         * @description When this operation stops working (RFC 8594); from then on it answers `410 gone`.
         * @example Thu, 05 Dec 2030 00:00:00 GMT
         */
        Sunset: "Thu, 05 Dec 2030 00:00:00 GMT";
        /**
         * @description Links (RFC 8288) to the deprecation notice (`rel="deprecation"`) and to the replacement operation (`rel="successor-version"`).
         * @example </docs#tag/Pets/operation/getPet>; rel="deprecation"; type="text/html", </v1/pets>; rel="successor-version"
         */
        DeprecationLink: string;
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
         * @description A strong validator of the page; send it back in `If-None-Match` to get `304`.
         * @example "Nq0tG4mYy7l4dXf0kR2c1Q"
         */
        ETag: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of pets to return.
                 * @example 20
                 */
                limit?: number;
                /** @description Return only pets with this status. */
                status?: components["schemas"]["PetStatus"];
                /** @description Opaque position in the listing, taken from the `Link` header of the previous page. Do not build or change it. Anything that is not a cursor this service issued for the same `status` is `400 invalid_cursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pets. */
            200: {
                headers: {
                    Link: components["headers"]["NextPageLink"];
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
                    "application/json": components["schemas"]["Pets"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPet: {
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
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description The pet was added (or, on a replay, had been added by the first request). */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
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
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["IdempotencyInProgress"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the pet, as a canonical decimal: digits with an optional leading minus sign, no leading zeros, no plus sign, no spaces, within the signed 64-bit range. Anything else is `400 invalid_parameter`. Identifiers are assigned from 1 upwards, so a well-formed identifier that was never assigned (0 and negative ones included) is `404 not_found`.
                 * @example 42
                 */
                petId: bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet. */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description `petId` is not a canonical decimal 64-bit integer (`invalid_parameter`). */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
            /** @description The API key is missing or invalid (`unauthorized`). */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
            /** @description No pet has this identifier (`not_found`). */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
            /** @description The operation has passed its sunset, 2030-12-05T00:00:00Z (`gone`). */
            410: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
            /** @description Over the rate limit (`rate_limited`), or blocked for ignoring it (`temporarily_banned`). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
            /** @description An unexpected failure (`internal_error`). */
            500: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
            /** @description A dependency of the service is unavailable (`service_unavailable`). */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
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
    };
    listStoreOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
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
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        info: Record<string, never>;
                        paths: Record<string, never>;
                    };
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
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
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to take traffic. */
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
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "database": "ok",
                     *         "disk": "ok",
                     *         "rateLimitStore": "ok"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        status: "ready";
                        /** @description The state of each dependency, by name; all `ok` when ready. */
                        checks: {
                            [key: string]: "ok";
                        };
                    };
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Not ready; the message names the dependency that failed. */
            503: {
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
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current metrics. */
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
                    /**
                     * @example # HELP petstore_http_requests_total HTTP requests answered, by operation, method and status code.
                     *     # TYPE petstore_http_requests_total counter
                     *     petstore_http_requests_total{operation="listPets",method="GET",status="200"} 1027
                     */
                    "text/plain": string;
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
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
                    "text/html": string;
                };
            };
            /** @description The page has not changed since the `ETag` sent in `If-None-Match`. */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
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
                content?: never;
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
}

/** Availability of a pet. */
export type PetStatus = components['schemas']['PetStatus'];
/** A pet to add: 64-bit integers are `bigint`, so no digit is ever lost. */
export type NewPet = components['schemas']['NewPet'];
/** A pet as stored. */
export type Pet = components['schemas']['Pet'];
/** The Error body of every failure. */
export type ErrorBody = components['schemas']['Error'];
/** The service's closed catalogue of error codes. */
export type ApiErrorCode = ErrorBody['code'];
