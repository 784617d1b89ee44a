import type { Infrastructure } from './infrastructure.ts';

export interface RunningRole {
  readonly name: string;
  stop(): Promise<void>;
}

/** What each role package exports as `start` from its `role.ts`. */
export type StartRole = (infrastructure: Infrastructure) => Promise<RunningRole>;
