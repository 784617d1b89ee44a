// The orchestrator settings of an application, shaped as the orchestrator's own API.
import { Type, type TNull, type TOptional, type TUnion } from '@sinclair/typebox';
import { Closed, Num, Opt, OptNull, Str } from './schema.ts';

const OptNum = () => Opt(Num());
const UpdateConfig = Closed({
  Parallelism: OptNum(), Delay: OptNum(), Monitor: OptNum(), MaxFailureRatio: OptNum(),
  FailureAction: Opt(Str()), Order: Opt(Str()),
});
/** The orchestrator settings of an application, shaped as the orchestrator's own API. */
export const orchestratorSettings = {
  healthCheckOrch: Closed({
    Test: Opt(Type.Array(Str())), Interval: OptNum(), Timeout: OptNum(), StartPeriod: OptNum(), Retries: OptNum(),
  }),
  restartPolicyOrch: Closed({ Condition: Opt(Str()), Delay: OptNum(), MaxAttempts: OptNum(), Window: OptNum() }),
  placementOrch: Closed({
    Constraints: Opt(Type.Array(Str())),
    Preferences: Opt(Type.Array(Closed({ Spread: Closed({ SpreadDescriptor: Str() }) }))),
    MaxReplicas: OptNum(),
    Platforms: Opt(Type.Array(Closed({ Architecture: Str(), OS: Str() }))),
  }),
  updateConfigOrch: UpdateConfig,
  rollbackConfigOrch: UpdateConfig,
  modeOrch: Closed({
    Replicated: Opt(Closed({ Replicas: OptNum() })),
    Global: Opt(Closed({})),
    ReplicatedJob: Opt(Closed({ MaxConcurrent: OptNum(), TotalCompletions: OptNum() })),
    GlobalJob: Opt(Closed({})),
  }),
  labelsOrch: Type.Record(Str(), Str()),
  networkOrch: Type.Array(Closed({
    Target: Str(), Aliases: Opt(Type.Array(Str())), DriverOpts: Opt(Type.Record(Str(), Str())),
  })),
};
type Settings = typeof orchestratorSettings;
/** The settings as an input takes them: each may be left out or null. */
export const orchestratorFields = Object.fromEntries(
  Object.entries(orchestratorSettings).map(([field, schema]) => [field, OptNull(schema)]),
) as { [K in keyof Settings]: TOptional<TUnion<[Settings[K], TNull]>> };

