import { Type } from '@sinclair/typebox';
import { group, get, post } from './operation.ts';
import {
  APP_SOURCE_TYPES, BUILD_TYPES, Bool, Closed, MinStr, Nullable, Num, OneOf, Opt, OptNull, Status, Str,
} from './schema.ts';

const OptNum = () => Opt(Num());
const UpdateConfig = Closed({
  Parallelism: OptNum(), Delay: OptNum(), Monitor: OptNum(), MaxFailureRatio: OptNum(),
  FailureAction: Opt(Str()), Order: Opt(Str()),
});
/** The orchestrator settings of an application, shaped as the orchestrator's own API. */
export const orchestratorFields = {
  healthCheckOrch: OptNull(Closed({
    Test: Opt(Type.Array(Str())), Interval: OptNum(), Timeout: OptNum(), StartPeriod: OptNum(), Retries: OptNum(),
  })),
  restartPolicyOrch: OptNull(Closed({ Condition: Opt(Str()), Delay: OptNum(), MaxAttempts: OptNum(), Window: OptNum() })),
  placementOrch: OptNull(Closed({
    Constraints: Opt(Type.Array(Str())),
    Preferences: Opt(Type.Array(Closed({ Spread: Closed({ SpreadDescriptor: Str() }) }))),
    MaxReplicas: OptNum(),
    Platforms: Opt(Type.Array(Closed({ Architecture: Str(), OS: Str() }))),
  })),
  updateConfigOrch: OptNull(UpdateConfig),
  rollbackConfigOrch: OptNull(UpdateConfig),
  modeOrch: OptNull(Closed({
    Replicated: Opt(Closed({ Replicas: OptNum() })),
    Global: Opt(Closed({})),
    ReplicatedJob: Opt(Closed({ MaxConcurrent: OptNum(), TotalCompletions: OptNum() })),
    GlobalJob: Opt(Closed({})),
  })),
  labelsOrch: OptNull(Type.Record(Str(), Str())),
  networkOrch: OptNull(Type.Array(Closed({
    Target: Str(), Aliases: Opt(Type.Array(Str())), DriverOpts: Opt(Type.Record(Str(), Str())),
  }))),
};

const id = { applicationId: Str() };
const resources = {
  memoryReservation: OptNull(Num()), memoryLimit: OptNull(Num()),
  cpuReservation: OptNull(Num()), cpuLimit: OptNull(Num()),
};

export const application = group('application', {
  create: post(Closed({ name: MinStr(), appName: Opt(Str()), description: OptNull(Str()), projectId: Str() })),
  one: get(Closed(id)),
  reload: post(Closed({ appName: Str(), ...id })),
  delete: post(Closed(id)),
  stop: post(Closed(id)),
  start: post(Closed(id)),
  redeploy: post(Closed(id)),
  deploy: post(Closed(id)),
  saveEnvironment: post(Closed({ ...id, env: OptNull(Str()) })),
  saveBuildType: post(Closed({ ...id, buildType: OneOf(BUILD_TYPES), containerfile: OptNull(Str()) })),
  saveForgeProvider: post(Closed({
    ...id, repository: OptNull(Str()), branch: OptNull(Str()), owner: Nullable(Str()), buildPath: OptNull(Str()),
  })),
  saveContainerProvider: post(Closed({
    ...id, containerImage: OptNull(Str()), username: OptNull(Str()), password: OptNull(Str()),
  })),
  saveGitProdiver: post(Closed({
    ...id, customGitBranch: OptNull(Str()), customGitBuildPath: OptNull(Str()), customGitUrl: OptNull(Str()),
  })),
  generateSSHKey: post(Closed(id)),
  removeSSHKey: post(Closed(id)),
  markRunning: post(Closed(id)),
  update: post(Closed({
    applicationId: MinStr(),
    name: Opt(MinStr()), appName: Opt(MinStr()), description: OptNull(Str()), env: OptNull(Str()),
    ...resources,
    title: OptNull(Str()), subtitle: OptNull(Str()), command: OptNull(Str()), refreshToken: OptNull(Str()),
    enabled: OptNull(Bool()), sourceType: Opt(OneOf(APP_SOURCE_TYPES)),
    repository: OptNull(Str()), owner: OptNull(Str()), branch: OptNull(Str()), buildPath: OptNull(Str()),
    autoDeploy: OptNull(Bool()),
    username: OptNull(Str()), password: OptNull(Str()), containerImage: OptNull(Str()),
    customGitUrl: OptNull(Str()), customGitBranch: OptNull(Str()), customGitBuildPath: OptNull(Str()),
    customGitSSHKey: OptNull(Str()), containerfile: OptNull(Str()),
    ...orchestratorFields,
    replicas: Opt(Type.Integer({ minimum: 0 })), applicationStatus: Opt(Status()),
    buildType: Opt(OneOf(BUILD_TYPES)), createdAt: Opt(Str()), registryId: OptNull(Str()), projectId: Opt(Str()),
  })),
  refreshToken: post(Closed(id)),
  cleanQueues: post(Closed(id)),
  readProxyConfig: get(Closed(id)),
  updateProxyConfig: post(Closed({ ...id, proxyConfig: Str() })),
  readAppMonitoring: get(Closed({ appName: Str() })),
});
