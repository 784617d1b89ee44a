/** Work that must run in one process at a time across all of them (a projection, a singleton reactor). */
export interface LeasedWork {
  start(): Promise<void>;
  /** Must finish well within half the lease's time to live. */
  stop(): Promise<void>;
}

export interface Lease {
  /** Whether this process holds the lease and its work runs. */
  readonly holding: boolean;
  /** Stops the work if it runs and gives the lease up, so another process takes over at once. */
  release(): Promise<void>;
}

export interface Leases {
  /** Runs `work` exactly while this process holds the lease `name`, trying to take it over for as long as it lives. */
  hold(name: string, work: LeasedWork): Lease;
  close(): Promise<void>;
}
