import { isUnavailable, UnavailableError } from './unavailable.ts';

/**
 * A file of the data folder that could not be written for want of room. An outage like the others
 * (its name stays UnavailableError: retries and reactors treat it as one), whose message names the
 * cause, since "cannot be reached" would send the operator looking at the wrong thing.
 */
export class DiskFullError extends UnavailableError {
  readonly diskFull = true;

  constructor(what: string, cause: unknown) {
    super(what, cause);
    this.message = `The disk of the data folder (BERTH_DATA_DIR) is full: ${what} could not be written`;
  }
}

/** By a field, as isUnavailable goes by name: this module can be loaded twice. */
export const isDiskFull = (error: unknown): error is DiskFullError =>
  isUnavailable(error) && (error as { diskFull?: unknown }).diskFull === true;
