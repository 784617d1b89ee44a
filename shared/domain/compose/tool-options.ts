// What of a file the compose tool (container-compose) does not use: a stack's deploy settings. The
// tool runs the containers without them, so the deployment's log lists them, as a stack's lists
// what a stack does not use (stack-options.ts), instead of running the file otherwise unsaid.
import { parseDocument } from 'yaml';
import { asMap } from './values.ts';

/** Deploy keys the compose tools pass over (replicas, resources and restart_policy they use). */
const STACK_ONLY_DEPLOY_KEYS = new Set(['mode', 'placement', 'update_config', 'rollback_config', 'endpoint_mode', 'labels']);

/** The stack-only deploy settings of `text`'s services, as paths; `mode: replicated`, what the tool does anyway, left out. */
export function unusedByTheComposeTool(text: string): string[] {
  const file = asMap(parseDocument(text, { merge: true }).toJS());
  return Object.entries(asMap(file.services)).flatMap(([name, body]) => {
    const deploy = asMap(asMap(body).deploy);
    return Object.keys(deploy)
      .filter((key) => STACK_ONLY_DEPLOY_KEYS.has(key) && !(key === 'mode' && deploy.mode === 'replicated'))
      .map((key) => `services.${name}.deploy.${key}`);
  });
}
