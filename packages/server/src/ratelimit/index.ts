export { createLimiterFromConfig, type ConfiguredLimiter } from './from-config.ts';
export { createRateLimiter, type LimitSubject, type RateLimitDecision, type RateLimiter } from './limiter.ts';
export { createMemoryStore, type MemoryStore } from './memory-store.ts';
export { ANONYMOUS_LIMITS, limitsFor, PLAN_LIMITS, type Limits } from './plans.ts';
export {
  createRedisClient,
  createRedisStore,
  liftBanInRedis,
  whenReady,
  type RedisStore,
} from './redis-store.ts';
export type { RateLimitStore } from './store.ts';
