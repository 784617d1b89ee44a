/** Why work failed, as a deployment's log and records say it: the error's message, never empty. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)) || 'failed';
