// An application's `env` text as the engine's list of KEY=value entries. Values are never echoed
// in an error: a line may hold a secret, so a fault names its line number and key only.
import { ENV_LINE, envValue, isBlankEnvLine } from '@berth/shared/domain/env-text';

/** Raised for a fault of the user's input that the deployment reports as its reason. */
export class DeploymentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeploymentFailure';
  }
}

/** `KEY=value` a line, read as shared/domain/env-text.ts reads it; a line that is not one fails the deployment. */
export function parseEnv(text: string | null): string[] {
  if (!text) return [];
  const entries: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (isBlankEnvLine(line)) return;
    const match = ENV_LINE.exec(line.trim());
    if (!match) {
      throw new DeploymentFailure(`env line ${index + 1} is not KEY=value (a key is letters, digits and _ . -, not starting with a digit)`);
    }
    const key = match[1]!;
    const value = envValue(match[2]!);
    if (value === null) throw new DeploymentFailure(`env line ${index + 1} (${key}): the quoted value is not closed where the line ends`);
    entries.push(`${key}=${value}`);
  });
  return entries;
}
