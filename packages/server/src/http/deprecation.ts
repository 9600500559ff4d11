import type { Deprecation } from './route-config.ts';

export interface DeprecatedOperation {
  operationId: string;
  /** `x-deprecated-at`: when the deprecation was announced (ISO 8601). */
  deprecatedAt: string;
  /** `x-sunset`: when the operation stops working (ISO 8601). */
  sunset: string;
  /** Where the documentation says so, e.g. `/docs#tag/Pets/operation/getPet`. */
  documentation: string;
  /** The path of the replacement (`x-successor`'s URL), e.g. `/v1/pets`. */
  successorUrl: string;
  /** `GET /v1/pets` */
  successorLabel: string;
  /** `GET /v1/pets/{petId}` */
  label: string;
}

function instant(operationId: string, name: string, text: string): number {
  const at = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(at)) {
    throw new Error(`the OpenAPI document: ${operationId} ${name} must be an ISO 8601 instant, got ${text}`);
  }
  return at;
}

/** The headers (RFC 9745 Deprecation, RFC 8594 Sunset, RFC 8288 Link) and the 410 of a deprecated operation. */
export function deprecationOf(operation: DeprecatedOperation): Deprecation {
  const deprecatedAt = instant(operation.operationId, 'x-deprecated-at', operation.deprecatedAt);
  const sunsetAt = instant(operation.operationId, 'x-sunset', operation.sunset);
  const day = new Date(sunsetAt).toISOString().slice(0, 10);
  return {
    headers: {
      deprecation: `@${Math.floor(deprecatedAt / 1000)}`,
      sunset: new Date(sunsetAt).toUTCString(),
      link: `<${operation.documentation}>; rel="deprecation"; type="text/html", <${operation.successorUrl}>; rel="successor-version"`,
    },
    sunsetAt,
    goneMessage: `${operation.label} was removed on ${day}; use ${operation.successorLabel} instead`,
  };
}
