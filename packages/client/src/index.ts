export { CLIENT_VERSION, createPetstoreClient, type PetstoreClient } from './client.ts';
export { type ApiErrorCode, type ClientErrorCode, PetstoreError, type PetstoreErrorInit } from './errors.ts';
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
