import { badRequest } from '@berth/shared/errors';

/**
 * createdAt is when the record was made. An update may carry it back as it was read (in any offset);
 * another instant is refused rather than silently ignored or rewriting the record's history.
 */
export function mustKeepCreatedAt(given: string | undefined, current: string): void {
  if (given !== undefined && Date.parse(given) !== Date.parse(current)) {
    throw badRequest('createdAt', `is when the record was made (${current}) and cannot be changed: send it as read, or leave it out`);
  }
}
