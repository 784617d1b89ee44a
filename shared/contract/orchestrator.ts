// The orchestrator settings of an application, shaped as the orchestrator's own API, written once
// and made twice: as records keep and answer them, and as an input may set them.
import {
  Type, type TInteger, type TLiteral, type TNull, type TNumber, type TOptional, type TSchema, type TString, type TUnion,
} from '@sinclair/typebox';
import { Closed, Num, OneOf, Opt, OptNull, Str } from './schema.ts';

/** How strict the leaves of the settings are (typed, so each way of making them keeps its static type). */
interface Leaves<N extends TSchema, W extends TSchema, P extends TSchema> {
  /** A count (replicas, attempts, retries). */
  count: () => N;
  /** A duration in nanoseconds, the orchestrator's unit. */
  duration: () => N;
  /** A health-check duration in nanoseconds: the engine takes none under 1 ms but 0 (its default). */
  probeDuration: () => P;
  /** A name the orchestrator looks up (a network). */
  name: () => TString;
  /** A placement constraint, `<attribute> ==|!= <value>`. */
  constraint: () => TString;
  /** A share from 0 to 1. */
  ratio: () => N;
  /** One of the orchestrator's words. */
  word: (values: readonly string[]) => W;
  /** At most this many of the modes. */
  modes: number | undefined;
}

function settings<N extends TSchema, W extends TSchema, P extends TSchema>({
  count, duration, probeDuration, name, constraint, ratio, word, modes,
}: Leaves<N, W, P>) {
  const updateConfig = Closed({
    Parallelism: Opt(count()), Delay: Opt(duration()), Monitor: Opt(duration()), MaxFailureRatio: Opt(ratio()),
    FailureAction: Opt(word(['pause', 'continue', 'rollback'])), Order: Opt(word(['stop-first', 'start-first'])),
  });
  return {
    healthCheckOrch: Closed({
      Test: Opt(Type.Array(Str())), Interval: Opt(probeDuration()), Timeout: Opt(probeDuration()), StartPeriod: Opt(probeDuration()),
      Retries: Opt(count()),
    }),
    restartPolicyOrch: Closed({
      Condition: Opt(word(['none', 'on-failure', 'any'])), Delay: Opt(duration()), MaxAttempts: Opt(count()), Window: Opt(duration()),
    }),
    placementOrch: Closed({
      Constraints: Opt(Type.Array(constraint())),
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
      Target: name(), Aliases: Opt(Type.Array(Str())), DriverOpts: Opt(Type.Record(Str(), Str())),
    })),
  };
}

/**
 * As records keep and answer them: plain numbers and words, so a record saved before a bound was
 * stated reads back exactly as it was kept.
 */
export const orchestratorSettings = settings({
  count: () => Num(), duration: () => Num(), probeDuration: () => Num(), name: Str, constraint: Str, ratio: () => Num(), word: () => Str(), modes: undefined,
});

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

/**
 * 0 (none, or the orchestrator's default), or from `least`: the orchestrator refuses a value in
 * between (a limit of 0.5 nano-CPUs, a health-check interval of 5 ns). `whole`: an integer.
 */
const NoneOrAtLeast = (least: number, unit: string, { whole = false, zero = 'none' } = {}) => Type.Union(
  [Type.Literal(0), whole ? Type.Integer({ minimum: least, maximum: MOST }) : Num({ minimum: least, maximum: MOST })],
  { description: `${unit}: 0 for ${zero}, or ${whole ? 'an integer ' : ''}from ${least} to ${MOST}` },
);
const ProbeNanoseconds = () =>
  NoneOrAtLeast(1_000_000, 'nanoseconds (1000000, 1 ms, is the least the orchestrator takes)', { whole: true, zero: 'its default' });
/**
 * `<attribute> ==|!= <value>` as the orchestrator parses a constraint: an attribute of two or more
 * letters, digits and _ . - (not starting with a digit, -, or .), a value of letters, digits, spaces
 * and : - _ . * ( ) ? + [ ] \ ^ $ | /, and nothing else (no second operator).
 */
const CONSTRAINT = /^\s*[A-Za-z_][A-Za-z0-9_.-]+\s*(?:==|!=)\s*[A-Za-z0-9:\-_\s.*()?+[\]\\^$|/]+$/;
const Constraint = () => Type.String({
  pattern: CONSTRAINT.source,
  description: 'a constraint the orchestrator parses: <attribute> == <value> or <attribute> != <value> (node.role == manager)',
});

const orchestratorInputs = settings<TNumber | TInteger, TString | TUnion<TLiteral<string>[]>, TUnion<[TLiteral<0>, TInteger | TNumber]>>({
  count: WholeCount,
  duration: WholeCount,
  probeDuration: ProbeNanoseconds,
  name: () => Type.String({ minLength: 1 }),
  constraint: Constraint,
  ratio: () => Type.Number({ minimum: 0, maximum: 1 }),
  word: (values) => OneOf(['', ...values]),
  modes: 1,
});
type Inputs = typeof orchestratorInputs;
/** The settings as an input takes them: each may be left out or null. */
export const orchestratorFields = Object.fromEntries(
  Object.entries(orchestratorInputs).map(([field, schema]) => [field, OptNull(schema)]),
) as { [K in keyof Inputs]: TOptional<TUnion<[Inputs[K], TNull]>> };

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
