import type { IncomingMessage } from 'node:http';
import type { AuthenticatedKey } from '../storage/records.ts';

/**
 * What the API's lane (features/pets/lane.ts) had decided when it met an error: the framework answers
 * the request from there, so an error is answered, logged and counted in one place only.
 */
export interface LaneHandoff {
  requestId: string;
  error: unknown;
  /** Headers the lane set (the rate-limit headers; `Connection: close` after a body refused), to carry on the error answer. */
  headers: Record<string, string>;
  apiKey: AuthenticatedKey | undefined;
}

const HANDOFF = Symbol('petstore.laneHandoff');
type Carrying = IncomingMessage & { [HANDOFF]?: LaneHandoff };

export function handOff(request: IncomingMessage, handoff: LaneHandoff): void {
  (request as Carrying)[HANDOFF] = handoff;
}

export function handoffOf(request: IncomingMessage): LaneHandoff | undefined {
  return (request as Carrying)[HANDOFF];
}
