// A database service on the engine, as both the API (start, reload) and the deployer (deploy) drive
// it: its spec rolled out, and the wait until a task runs and the engine accepts connections.
import { DEFAULT_IMAGES, type Engine } from '../contract/databases.ts';
import type { Database } from '../domain/database/database.ts';
import { profileOf, type EngineProfile } from '../domain/database/profile.ts';
import { dataVolumeOf, databaseMark, databaseServiceSpec } from '../domain/database/service-spec.ts';
import type { Infrastructure } from '../runtime/infrastructure.ts';
import type { ContainerEngine, ServiceSpec } from '../ports/container-engine.ts';
import { DEPLOYMENT_LABEL } from '../domain/deployment/record.ts';
import { ImageNotPulled, isImageNotPulled } from './services.ts';
import { plainly } from '../runtime/task-watch.ts';

/** Bound on the wait for the engine to accept connections once its task runs (a first start initialises). */
const READY_TIMEOUT_MS = 120_000;
const POLL_MS = 500;

type Infra = Pick<Infrastructure, 'databaseServices' | 'taskExec' | 'config' | 'secrets' | 'stacks'>;

export const profileOfDatabase = (infra: Infra, engine: Engine, database: Database): EngineProfile =>
  profileOf(engine, database.containerImage, infra.config.databaseProfiles);

/** The database's own service on the engine: one of its name that Berth did not make for it is left alone. */
export const servicesOf = (infra: Infra, engine: Engine, database: Database) => infra.databaseServices(databaseMark(engine, database));

/** The passwords of a database, opened: its environment, and what every log of it masks. */
export const credentialsOf = (infra: Infra, database: Database) => ({
  databaseName: database.databaseName, databaseUser: database.databaseUser,
  databasePassword: database.databasePassword && infra.secrets.open(database.databasePassword),
  databaseRootPassword: database.databaseRootPassword && infra.secrets.open(database.databaseRootPassword),
});

/** Resolves once a task runs and the profile's readiness check passes; else rejects with the engine's reason. */
export async function untilReady(
  infra: Infra, engine: Engine, database: Database, log: (line: string) => void = () => {}, generation?: number,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  // A task that never starts (its host port taken) stays pending forever: bounded like an application's.
  const startBy = Date.now() + infra.config.taskStartTimeoutMs;
  const { ready } = profileOfDatabase(infra, engine, database);
  let reason = 'no task started';
  let said = '';
  while (Date.now() < deadline) {
    // Of the new generation only: right after an update the previous task may still run and answer.
    const notRunning = await servicesOf(infra, engine, database).notRunning(database.appName, generation);
    if (notRunning === null) {
      const check = await infra.taskExec.exec({ name: database.appName, mark: databaseMark(engine, database) }, ready, {}).catch(() => null);
      if (check?.exitCode === 0) return;
      reason = 'the engine does not accept connections yet';
    } else {
      reason = plainly(notRunning);
    }
    if (reason !== said) log((said = reason));
    // The engine would retry a task it cannot start forever (a missing image, a host port taken):
    // fail now, with its words.
    if (notRunning !== null && (/^(rejected|failed)/.test(notRunning) || Date.now() > startBy)) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${database.appName} is not running: ${reason}`);
}

/**
 * The database's service as its settings say now: its passwords and its env opened (the env is
 * recorded sealed, as it holds secrets; one recorded before that is in clear, and reveal leaves it so).
 */
export const serviceSpecOf = (infra: Infra, engine: Engine, database: Database) => databaseServiceSpec(
  engine, { ...database, env: infra.secrets.reveal(database.env) }, credentialsOf(infra, database), profileOfDatabase(infra, engine, database));

/**
 * The kind's neutral default image (`dbgamma:15`) is a name no registry holds, run as the operator
 * maps it: when it cannot be pulled, the failure says how to give the database a real image.
 */
function withDefaultImageHint(error: unknown, engine: Engine): unknown {
  const image = DEFAULT_IMAGES[engine];
  if (!isImageNotPulled(error) || error.reference !== image) return error;
  const reason = error.reason.replace(/[.\s]+$/, '');
  return new ImageNotPulled(image, `${reason}. ${image} is the neutral default image of ${engine} databases, which no registry holds: `
    + `set the database's containerImage to an image the engine has or can pull, `
    + `or map the default to one in BERTH_DATABASE_PROFILES ({"${engine}": {"image": "<image>"}})`);
}

/** Creates or updates the service to the database's settings and waits until it serves; answers the image. */
export async function deployDatabase(
  infra: Infra, engine: Engine, database: Database, log: (line: string) => void, deploymentId: string,
): Promise<string> {
  const profile = profileOfDatabase(infra, engine, database);
  const services = servicesOf(infra, engine, database);
  const before = await services.spec(database.appName);
  log(`${before ? 'Updating' : 'Creating'} the service ${database.appName} from ${profile.image}`);
  const spec = serviceSpecOf(infra, engine, database);
  // Marked with its deployment, so a restart after a crash mid-deploy puts it back (reactors' recovery).
  const generation = await services.upsert({ ...spec, Labels: { ...spec.Labels, [DEPLOYMENT_LABEL]: deploymentId } })
    .catch((error: unknown) => { throw withDefaultImageHint(error, engine); });
  await readyOrUndone(infra, engine, database, before, generation, log);
  log(`${database.appName} accepts connections`);
  return profile.image;
}

/**
 * Resolves once the rolled-out `generation` serves; else puts the service back to `before` (see
 * undo) and rejects with the engine's reason. A deploy and a start both end so.
 */
export async function readyOrUndone(
  infra: Infra, engine: Engine, database: Database, before: ServiceSpec | null, generation: number,
  log: (line: string) => void = () => {}, warn: (line: string) => void = log,
): Promise<void> {
  try {
    await untilReady(infra, engine, database, log, generation);
  } catch (error) {
    await undo(infra, engine, database, before, log).catch((failure: unknown) =>
      warn(`Could not restore the service: ${failure instanceof Error ? failure.message : String(failure)}`));
    throw error;
  }
}

/**
 * A deploy that cannot start, undone as an application's is: a first one leaves no service behind
 * (the volume stays, empty or not); an update goes back to the spec that served, and the deploy
 * fails once that serves again, so the database is not left down by a change it could not take.
 */
async function undo(infra: Infra, engine: Engine, database: Database, before: ServiceSpec | null, log: (line: string) => void): Promise<void> {
  const { appName } = database;
  if (!before) {
    await servicesOf(infra, engine, database).remove(appName);
    log(`Removed the service ${appName} this deployment created`);
    return;
  }
  const generation = await servicesOf(infra, engine, database).restore(appName, before);
  log(`Restored the previous version of ${appName} (${before.TaskTemplate.ContainerSpec.Image})`);
  // A stopped database stays stopped: nothing to wait for.
  if ((before.Mode as { Replicated?: { Replicas?: number } } | undefined)?.Replicated?.Replicas === 0) return;
  await untilReady(infra, engine, database, log, generation);
  log(`${appName} accepts connections again`);
}

/**
 * Removes a removed database's data volume through `engine` (one that acts only on the database's
 * own objects), once its last container let go of it (bounded).
 */
export async function removeDataVolume(engine: Pick<ContainerEngine, 'removeVolume'>, appName: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await engine.removeVolume(dataVolumeOf(appName));
      return;
    } catch (error) {
      // In use while the service's last task shuts down (it has a grace period to flush).
      if (Date.now() > deadline) throw new Error(`the volume ${dataVolumeOf(appName)} could not be removed: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
