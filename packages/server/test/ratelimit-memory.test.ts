import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { runLimiterContract } from './ratelimit-contract.ts';

runLimiterContract('memory', async () => ({ store: createMemoryStore(), close: async () => {} }));
