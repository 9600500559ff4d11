import { StorageUnavailableError } from './errors.ts';
import type { Storage } from './repository.ts';

/** What stays usable while the schema is not ready: opening, migrating, closing and reporting. */
const ALWAYS = new Set<PropertyKey>([
  'migrate',
  'rollback',
  'close',
  'kind',
  'poolStats',
  'freeDiskBytes',
  'ownWrites',
]);

/** The repositories whose every method is refused too (the others are reached as they are). */
const GUARDED = new Set<PropertyKey>(['pets', 'keys', 'idempotency']);

/**
 * The storage, refusing every data call with StorageUnavailableError (so 503, never a 500 from a
 * missing table) until `isReady()` says its migrations are applied. Used only when the database could
 * not be migrated at start-up; a server that started normally uses its storage directly.
 */
export function untilReady<T extends Storage>(storage: T, isReady: () => boolean): T {
  const notReady = () =>
    new StorageUnavailableError('database unavailable: its migrations are not applied yet');
  const refused = <R extends object>(repository: R): R =>
    new Proxy(repository, {
      get(target, name) {
        const value: unknown = Reflect.get(target, name, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => (isReady() ? method.apply(target, args) : Promise.reject(notReady()));
      },
    });
  const repositories = new Map<PropertyKey, object>();
  return new Proxy(storage, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (GUARDED.has(name) && typeof value === 'object' && value !== null) {
        let guarded = repositories.get(name);
        if (guarded === undefined) repositories.set(name, (guarded = refused(value)));
        return guarded;
      }
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (ALWAYS.has(name)) return method.bind(target);
      // changeToken is synchronous: no signal yet (callers then cache nothing); the others are promises.
      if (name === 'changeToken') return () => (isReady() ? method.call(target) : undefined);
      return (...args: unknown[]) => (isReady() ? method.apply(target, args) : Promise.reject(notReady()));
    },
  });
}
