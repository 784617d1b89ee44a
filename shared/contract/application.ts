import { Type } from '@sinclair/typebox';
import { orchestratorFields, resourceFields, WholeCount } from './orchestrator.ts';
import { group, get, post } from './operation.ts';
import { ApplicationRecord, DeploymentRecord, PortRecord, RedirectRecord, SecurityRecord } from './records.ts';
import { APP_SOURCE_TYPES, BUILD_TYPES, Bool, Closed, CreatedAt, MinStr, Nullable, Num, OneOf, Opt, OptNull, Status, Str } from './schema.ts';

const id = { applicationId: Str() };
/**
 * An application with its children. `deployments` are the Deployment aggregate's records
 * (deploy-control), newest first.
 */
export const ApplicationWithChildren = Closed({
  ...ApplicationRecord.properties,
  ports: Type.Array(PortRecord), redirects: Type.Array(RedirectRecord), security: Type.Array(SecurityRecord),
  deployments: Type.Array(DeploymentRecord),
});
/** What `readAppMonitoring` answers: one sample of the service's running containers, summed and one by one. */
const Monitoring = Closed({
  appName: Str(), cpuPercent: Num(),
  memory: Closed({ usedBytes: Num(), limitBytes: Num() }),
  network: Closed({ rxBytes: Num(), txBytes: Num() }),
  blockIO: Closed({ readBytes: Num(), writeBytes: Num() }),
  containers: Type.Array(Closed({
    containerId: Str(), name: Str(), cpuPercent: Num(), memoryUsedBytes: Num(), memoryLimitBytes: Num(),
    networkRxBytes: Num(), networkTxBytes: Num(), blockReadBytes: Num(), blockWriteBytes: Num(),
  })),
});

export const application = group('application', {
  create: post(Closed({ name: MinStr(), appName: Opt(Str()), description: OptNull(Str()), projectId: Str() }), ApplicationRecord),
  one: get(Closed(id), ApplicationWithChildren),
  reload: post(Closed({ appName: Str(), ...id }), ApplicationRecord),
  delete: post(Closed(id), ApplicationRecord),
  stop: post(Closed(id), ApplicationRecord),
  start: post(Closed(id), ApplicationRecord),
  redeploy: post(Closed(id), DeploymentRecord),
  deploy: post(Closed(id), DeploymentRecord),
  saveEnvironment: post(Closed({ ...id, env: OptNull(Str()) }), ApplicationRecord),
  saveBuildType: post(Closed({ ...id, buildType: OneOf(BUILD_TYPES), containerfile: OptNull(Str()) }), ApplicationRecord),
  saveForgeProvider: post(Closed({
    ...id, repository: OptNull(Str()), branch: OptNull(Str()), owner: Nullable(Str()), buildPath: OptNull(Str()),
  }), ApplicationRecord),
  saveContainerProvider: post(Closed({
    ...id, containerImage: OptNull(Str()), username: OptNull(Str()), password: OptNull(Str()),
  }), ApplicationRecord),
  saveGitProdiver: post(Closed({
    ...id, customGitBranch: OptNull(Str()), customGitBuildPath: OptNull(Str()), customGitUrl: OptNull(Str()),
  }), ApplicationRecord),
  generateSSHKey: post(Closed(id), ApplicationRecord),
  removeSSHKey: post(Closed(id), ApplicationRecord),
  markRunning: post(Closed(id), ApplicationRecord),
  update: post(Closed({
    applicationId: MinStr(),
    name: Opt(MinStr()), appName: Opt(MinStr()), description: OptNull(Str()), env: OptNull(Str()),
    ...resourceFields,
    title: OptNull(Str()), subtitle: OptNull(Str()), command: OptNull(Str()), refreshToken: OptNull(Str()),
    enabled: OptNull(Bool()), sourceType: Opt(OneOf(APP_SOURCE_TYPES)),
    repository: OptNull(Str()), owner: OptNull(Str()), branch: OptNull(Str()), buildPath: OptNull(Str()),
    autoDeploy: OptNull(Bool()),
    username: OptNull(Str()), password: OptNull(Str()), containerImage: OptNull(Str()),
    customGitUrl: OptNull(Str()), customGitBranch: OptNull(Str()), customGitBuildPath: OptNull(Str()),
    customGitSSHKey: OptNull(Str()), containerfile: OptNull(Str()),
    ...orchestratorFields,
    replicas: Opt(WholeCount()), applicationStatus: Opt(Status()),
    buildType: Opt(OneOf(BUILD_TYPES)), createdAt: CreatedAt(), registryId: OptNull(Str()), projectId: Opt(Str()),
  }), ApplicationRecord),
  refreshToken: post(Closed(id), ApplicationRecord),
  cleanQueues: post(Closed(id), ApplicationRecord),
  readProxyConfig: get(Closed(id), Nullable(Str())),
  updateProxyConfig: post(Closed({ ...id, proxyConfig: Str() }), ApplicationRecord),
  readAppMonitoring: get(Closed({ appName: Str() }), Monitoring),
});
