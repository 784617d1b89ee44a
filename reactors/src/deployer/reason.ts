import { messageOf } from '@berth/shared/errors';
/** Why work failed, as a deployment's log and records say it: the error's message, never empty. */
export const reasonOf = (error: unknown): string => messageOf(error) || 'failed';
