// The values a deployment's fields take, shared by its record schema and its aggregate.
export const DEPLOYMENT_STATUSES = ['queued', 'running', 'done', 'error', 'cancelled'] as const;
export const DEPLOYMENT_KINDS = ['deploy', 'redeploy', 'rollback'] as const;
/** Who asked for a deployment: an account, or a forge's push webhook. */
export const TRIGGERS = ['account', 'webhook'] as const;
