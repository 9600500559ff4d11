/** Counts each answer by operation, method, status and duration (metrics/http-metrics.ts does). */
export interface ResponseCounter {
  observe(operation: string, method: string, status: number, ms: number): void;
}
