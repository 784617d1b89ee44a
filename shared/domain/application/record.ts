// The application record: every field of the spec's Application table, plus what Berth keeps
// beside it (the stored proxy configuration and the sealed private half of the git SSH key).
import type { Static } from '@sinclair/typebox';
import type { Sealed } from '../../crypto/secrets.ts';
import type { orchestratorSettings } from '../../contract/orchestrator.ts';
import type { APP_SOURCE_TYPES, BUILD_TYPES, Status } from '../../contract/schema.ts';

export type SourceType = (typeof APP_SOURCE_TYPES)[number];
export type BuildType = (typeof BUILD_TYPES)[number];

type Fields = typeof orchestratorSettings;
/** The orchestrator settings, shaped as the orchestrator's own API, each null when unset. */
export type OrchestratorSettings = { [K in keyof Fields]: Static<Fields[K]> | null };

export interface Application extends OrchestratorSettings {
  applicationId: string;
  projectId: string;
  name: string;
  /** The runtime name, unique across services (claimed in a reservation stream). */
  appName: string;
  description: string | null;
  env: string | null;
  memoryReservation: number | null;
  memoryLimit: number | null;
  cpuReservation: number | null;
  cpuLimit: number | null;
  title: string | null;
  subtitle: string | null;
  command: string | null;
  refreshToken: string | null;
  enabled: boolean | null;
  sourceType: SourceType;
  repository: string | null;
  owner: string | null;
  branch: string | null;
  buildPath: string | null;
  autoDeploy: boolean | null;
  username: string | null;
  /** Container registry password: sealed before it reaches the decider. */
  password: Sealed | null;
  containerImage: string | null;
  customGitUrl: string | null;
  customGitBranch: string | null;
  customGitBuildPath: string | null;
  /** The public half of the git SSH key, to paste into the forge's deploy keys. */
  customGitSSHKey: string | null;
  containerfile: string | null;
  replicas: number;
  applicationStatus: Status;
  buildType: BuildType;
  registryId: string | null;
  /** The proxy's dynamic configuration of this application, as the user last saved it. */
  proxyConfig: string | null;
  /** The private half of the git SSH key, sealed; never answered (see `hidden`). */
  sshPrivateKey: Sealed | null;
  createdAt: string;
  /**
   * The host ports (`<port>/<protocol>`) its service publishes on the engine, as its last successful
   * rollout left them; absent before the first. A port changed or removed since stays held in the
   * namespace of host ports, by the application, until a rollout no longer publishes it.
   */
  publishedPorts?: string[];
}

/** What a create is given; everything else takes the defaults of a fresh application. */
export type NewApplication = Pick<Application,
  'applicationId' | 'projectId' | 'name' | 'appName' | 'description' | 'refreshToken' | 'createdAt'>;

const noOrchestratorSettings: OrchestratorSettings = {
  healthCheckOrch: null, restartPolicyOrch: null, placementOrch: null, updateConfigOrch: null,
  rollbackConfigOrch: null, modeOrch: null, labelsOrch: null, networkOrch: null,
};

/**
 * A fresh application: idle, one replica, built from a containerfile, sourced from the forge as
 * the reference PaaS starts its applications (the first save*Provider sets the real source).
 */
export const newApplication = (given: NewApplication): Application => ({
  ...given,
  ...noOrchestratorSettings,
  env: null,
  memoryReservation: null, memoryLimit: null, cpuReservation: null, cpuLimit: null,
  title: null, subtitle: null, command: null,
  enabled: true,
  sourceType: 'forge',
  repository: null, owner: null, branch: null, buildPath: null,
  autoDeploy: true,
  username: null, password: null, containerImage: null,
  customGitUrl: null, customGitBranch: null, customGitBuildPath: null, customGitSSHKey: null,
  containerfile: null,
  replicas: 1,
  applicationStatus: 'idle',
  buildType: 'containerfile',
  registryId: null,
  proxyConfig: null,
  sshPrivateKey: null,
});
