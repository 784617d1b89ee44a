// The engine's stream of service events (updated, removed), as the engine watch follows it: only
// the names of the services changed, since the watch reads each one again in the service's turn.

export interface ServiceEventStream {
  /** Resolves once the stream ended (the engine closed it, or it failed); never rejects. */
  readonly ended: Promise<void>;
  close(): void;
}

export interface ServiceEvents {
  /** Opens the stream; `changed` hears the name of each service updated or removed from then on. Rejects when the engine is out of reach. */
  open(changed: (serviceName: string) => void): Promise<ServiceEventStream>;
}
