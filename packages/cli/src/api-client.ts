// The CLI runs the typed client from its TypeScript source, like the rest of the project (no build
// step): the package's exports point consumers at dist/, which exists only once it is packed.
export { createManageClient, createPetstoreClient, PetstoreError } from '../../client/src/index.ts';
export type {
  AuditEvent,
  ManageClient,
  ManageComponents,
  ManagedKey,
  ManagedProject,
  Pet,
  PetStatus,
  PetstoreClient,
} from '../../client/src/index.ts';
