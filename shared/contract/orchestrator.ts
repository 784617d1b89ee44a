// The orchestrator settings of an application, shaped as the orchestrator's own API, written once
// and made twice: as records keep and answer them, and as an input may set them.
import {
  Type, type TInteger, type TLiteral, type TNull, type TNumber, type TOptional, type TSchema, type TString, type TUnion,
} from '@sinclair/typebox';
import { Closed, Num, OneOf, Opt, OptNull, Str } from './schema.ts';

/** How strict the leaves of the settings are (typed, so each way of making them keeps its static type). */
interface Leaves<N extends TSchema, W extends TSchema> {
  /** A count (replicas, attempts, retries). */
  count: () => N;
  /** A duration in nanoseconds, the orchestrator's unit. */
  duration: () => N;
  /** A share from 0 to 1. */
  ratio: () => N;
  /** One of the orchestrator's words. */
  word: (values: readonly string[]) => W;
  /** At most this many of the modes. */
  modes: number | undefined;
}

function settings<N extends TSchema, W extends TSchema>({ count, duration, ratio, word, modes }: Leaves<N, W>) {
  const updateConfig = Closed({
    Parallelism: Opt(count()), Delay: Opt(duration()), Monitor: Opt(duration()), MaxFailureRatio: Opt(ratio()),
    FailureAction: Opt(word(['pause', 'continue', 'rollback'])), Order: Opt(word(['stop-first', 'start-first'])),
  });
  return {
    healthCheckOrch: Closed({
      Test: Opt(Type.Array(Str())), Interval: Opt(duration()), Timeout: Opt(duration()), StartPeriod: Opt(duration()), Retries: Opt(count()),
    }),
    restartPolicyOrch: Closed({
      Condition: Opt(word(['none', 'on-failure', 'any'])), Delay: Opt(duration()), MaxAttempts: Opt(count()), Window: Opt(duration()),
    }),
    placementOrch: Closed({
      Constraints: Opt(Type.Array(Str())),
      Preferences: Opt(Type.Array(Closed({ Spread: Closed({ SpreadDescriptor: Str() }) }))),
      MaxReplicas: Opt(count()),
      Platforms: Opt(Type.Array(Closed({ Architecture: Str(), OS: Str() }))),
    }),
    updateConfigOrch: updateConfig,
    rollbackConfigOrch: updateConfig,
    modeOrch: Type.Object({
      Replicated: Opt(Closed({ Replicas: Opt(count()) })),
      Global: Opt(Closed({})),
      ReplicatedJob: Opt(Closed({ MaxConcurrent: Opt(count()), TotalCompletions: Opt(count()) })),
      GlobalJob: Opt(Closed({})),
    }, { additionalProperties: false, ...(modes !== undefined && { maxProperties: modes }) }),
    labelsOrch: Type.Record(Str(), Str()),
    networkOrch: Type.Array(Closed({
      Target: Str(), Aliases: Opt(Type.Array(Str())), DriverOpts: Opt(Type.Record(Str(), Str())),
    })),
  };
}

/**
 * As records keep and answer them: plain numbers and words, so a record saved before a bound was
 * stated reads back exactly as it was kept.
 */
export const orchestratorSettings = settings({ count: () => Num(), duration: () => Num(), ratio: () => Num(), word: () => Str(), modes: undefined });

// The spec says "numbers"; the orchestrator reads these into unsigned (counts) or nanosecond
// (durations) integers and refuses negative ones, two modes at once, or words it does not know, so
// such a value could never deploy: refused on save, naming the field, rather than at deploy with
// the engine's words. An empty word means the orchestrator's default.
/**
 * The largest whole number a JSON number holds exactly, below the orchestrator's 64-bit integers:
 * a larger one (1e20 replicas) would be stored, then refused by the orchestrator at deploy.
 */
const MOST = Number.MAX_SAFE_INTEGER;
/** A whole number the orchestrator can take: a count, or a duration in nanoseconds. */
export const WholeCount = () => Type.Integer({ minimum: 0, maximum: MOST });

const orchestratorInputs = settings<TNumber | TInteger, TString | TUnion<TLiteral<string>[]>>({
  count: WholeCount,
  duration: WholeCount,
  ratio: () => Type.Number({ minimum: 0, maximum: 1 }),
  word: (values) => OneOf(['', ...values]),
  modes: 1,
});
type Inputs = typeof orchestratorInputs;
/** The settings as an input takes them: each may be left out or null. */
export const orchestratorFields = Object.fromEntries(
  Object.entries(orchestratorInputs).map(([field, schema]) => [field, OptNull(schema)]),
) as { [K in keyof Inputs]: TOptional<TUnion<[Inputs[K], TNull]>> };

/** 0 (none), or from `least`: the orchestrator refuses a value in between (a limit of 0.5 nano-CPUs). */
const NoneOrAtLeast = (least: number, unit: string) =>
  Type.Union([Type.Literal(0), Num({ minimum: least, maximum: MOST })], { description: `${unit}: 0 for none, or from ${least} to ${MOST}` });
const Bytes = () => NoneOrAtLeast(4 * 1024 * 1024, 'bytes (4194304 is the least the orchestrator takes)');
const NanoCpus = () => NoneOrAtLeast(1_000_000, 'nano-CPUs (1000000000 is one CPU, 1000000 the least the orchestrator takes)');

/**
 * Memory in bytes and CPU in nano-CPUs, as the orchestrator takes them (each rounded to a whole
 * number): nullable numbers per the spec, refused on save where the orchestrator would refuse them.
 */
export const resourceFields = {
  memoryReservation: OptNull(Bytes()), memoryLimit: OptNull(Bytes()),
  cpuReservation: OptNull(NanoCpus()), cpuLimit: OptNull(NanoCpus()),
};
