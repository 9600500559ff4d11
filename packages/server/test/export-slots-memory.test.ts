import { createMemorySlotStore } from '../src/features/requests/export-slots-memory.ts';
import { runExportSlotContract } from './export-slots-contract.ts';

runExportSlotContract('memory', async () => ({ store: createMemorySlotStore(), close: async () => {} }));
