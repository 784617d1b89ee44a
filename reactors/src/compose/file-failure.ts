// A compose file read for a deployment: what the domain refuses in it (an issue naming the field
// composeFile) fails the deployment with the reason, said of "the compose file".
import { DomainError } from '@berth/shared/errors';
import { DeploymentFailure } from '../deployer/env.ts';

export function readingTheFile<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof DomainError) throw new DeploymentFailure(`the compose file ${(error.issues[0]?.message ?? error.message).replace(/^composeFile:? /, '')}`);
    throw error;
  }
}
