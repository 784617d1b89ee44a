/**
 * One consumer's position in the log (the relay's), kept where every process that reports on it
 * can read it: the API's `/metrics` shows how far the relay is behind.
 */
export interface Checkpoint {
  /** Position of the last event done with; 0 when none was saved yet. */
  read(): Promise<number>;
  save(position: number): Promise<void>;
}
