export { CLIENT_VERSION, createPetstoreClient, type PetstoreClient } from './client.ts';
export { type ApiErrorCode, type ClientErrorCode, PetstoreError, type PetstoreErrorInit } from './errors.ts';
export {
  createManageClient,
  type ManageClient,
  type ManageClientOptions,
  type ManageInit,
  type ManagePage,
} from './manage.ts';
export type {
  ManageData,
  ManageMethod,
  ManageNdjsonPath,
  ManageOperation,
  ManagePageItem,
  ManagePagedPath,
  ManagePathOf,
  ManagePaths,
  ManageResult,
} from './manage-types.ts';
export type {
  AuditEvent,
  ManagedKey,
  ManagedProject,
  components as ManageComponents,
} from '@petstore/contract/manage';
export type {
  CreatePetOptions,
  CreatePetResult,
  GetPetResult,
  ListPetsParams,
  ListPetsResult,
  NewPet,
  Pet,
  PetStatus,
  PetsParams,
  PetstoreClientOptions,
  RateLimit,
  RetryOptions,
} from './types.ts';
