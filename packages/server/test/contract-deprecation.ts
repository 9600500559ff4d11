import { publicContract } from '../src/openapi/contract.ts';
import type { Deprecation } from '../src/http/route-config.ts';
import { contractOperations } from '../src/routes/table.ts';

/** getPet's deprecation as the route table derives it from the contract. */
export const getPetDeprecation: Deprecation = contractOperations(publicContract().document).find(
  (spec) => spec.config.operationId === 'getPet',
)!.config.deprecation!;
