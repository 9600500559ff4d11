/** Injected time source: production uses the system clock, tests move a fake one. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class FakeClock implements Clock {
  #now: number;
  constructor(start: number | Date = Date.UTC(2026, 0, 1, 12, 0, 0)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  set(at: number | Date): void {
    this.#now = typeof at === 'number' ? at : at.getTime();
  }
}
