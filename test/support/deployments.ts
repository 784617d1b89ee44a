// Waiting on a deployment the reactors run, as every test that deploys for real does.
import type { TestBerth } from './berth.ts';
import { eventually } from './engine.ts';

/** Polls the deployment until it ends; answers it with every status it was seen in. */
export async function ended(berth: TestBerth, deploymentId: string) {
  const seen: string[] = [];
  const last = await eventually(`deployment ${deploymentId} to end`, async () => {
    const deployment = await berth.ok('deployment.one', { deploymentId });
    if (seen.at(-1) !== deployment.status) seen.push(deployment.status);
    return ['done', 'error', 'cancelled'].includes(deployment.status) ? deployment : null;
  }, 90_000);
  return { ...last, seen };
}

/**
 * The deployment records the read models still hold for a service, by its id field. Once the
 * service is deleted deployment.all answers 404, so a test of their pruning reads the records.
 */
export const deploymentRecordsOf = async (berth: TestBerth, field: 'applicationId' | 'composeId' | 'databaseId', id: string) =>
  (await berth.berth.infrastructure.readStore.all('deployment')).filter((record) => record[field] === id);
