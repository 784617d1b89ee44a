// An application's `env` text as the engine's list of KEY=value entries. Values are never echoed
// in an error: a line may hold a secret, so a fault names its line number and key only.
import { readEnvText } from '@berth/shared/domain/env-text';

/** Raised for a fault of the user's input that the deployment reports as its reason. */
export class DeploymentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeploymentFailure';
  }
}

/** `KEY=value` a line, read as shared/domain/env-text.ts reads it; a line that is not one fails the deployment. */
export function parseEnv(text: string | null): string[] {
  const reading = readEnvText(text);
  if ('fault' in reading) throw new DeploymentFailure(reading.fault);
  return reading.entries.map(([key, value]) => `${key}=${value}`);
}
