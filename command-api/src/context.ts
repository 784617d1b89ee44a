import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { DomainEvent } from '@berth/shared/events/event';
import { streamName } from '@berth/shared/events/event';
import { notFound } from '@berth/shared/errors';
import { newTimeOrderedId } from '@berth/shared/ids';
import { execute, executeAt, load, type FoldedState } from '@berth/shared/runtime/execute';
import { MADE_AT, newestFirst } from '@berth/shared/ports/creation-order';
import type { Doc, FieldValue } from '@berth/shared/ports/read-store';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { processStateCache } from '@berth/shared/runtime/state-cache';
import type { Role } from '@berth/shared/domain/account/account';
import type { Permissions } from '@berth/shared/domain/account/permissions';
import { mustNotBeRemoving, type BeingRemoved } from '@berth/shared/domain/removal';
import { withheldFrom } from './auth/withheld.ts';

/** The account a request acts for, and the credential it presented. */
export interface Actor {
  readonly id: string;
  readonly rol: Role;
  readonly email: string;
  readonly permissions: Permissions;
  readonly sessionId: string;
  readonly sessionKind: 'login' | 'api';
  /** When a login token's password (and pin) were given; null for an API token. */
  readonly signedInAt: number | null;
}

export interface Outcome<S> {
  /** The state before the command: what a removal answers. */
  readonly before: S | null;
  readonly after: S | null;
  /** Where its last event went in the log; 0 when it changed nothing. */
  readonly position: number;
}

export type StateOf<A> = A extends { evolve: (state: infer S | null, event: never) => unknown } ? S : never;
export type CommandOf<A> = A extends { decide: (command: infer C, state: never) => unknown } ? C : never;

/** One request's view of Berth: who acts, when, and the ports to decide and read with. */
export class Context {
  /** Log position of the last event this request appended; the answer waits for projections to reach it. */
  position = 0;
  private at: string | undefined;
  /**
   * Streams read to change (readToChange), as read or as this request's last command left them;
   * made on first use, as most requests read none.
   */
  private held: Map<string, FoldedState> | undefined;

  constructor(
    readonly infra: Infrastructure,
    readonly actor: Actor | null,
    readonly correlationId: string,
    /** The client's address, for per-address limits: the TCP peer's, or the one a trusted proxy forwarded (BERTH_TRUSTED_PROXIES). */
    readonly clientAddress = 'local',
  ) {}

  /** The request's time, read once, when first needed (most queries never do). */
  get now(): string {
    return (this.at ??= this.infra.clock.now().toISOString());
  }

  /** An admin, or a call on no account's behalf: may see and do everything. */
  get seesAll(): boolean {
    return !this.actor || this.actor.rol === 'admin';
  }

  /** Whether the caller may see a project: an admin sees all, a user those in its access list. */
  canSeeProject(projectId: string): boolean {
    return this.seesAll || this.actor!.permissions.accesedProjects.includes(projectId);
  }

  canSeeService(serviceId: string): boolean {
    return this.seesAll || this.actor!.permissions.accesedServices.includes(serviceId);
  }

  /** Whether the caller may delete a service: an admin any, a user one it sees with canDeleteServices. */
  canDeleteService(serviceId: string): boolean {
    return this.seesAll || (this.actor!.permissions.canDeleteServices && this.canSeeService(serviceId));
  }

  get secrets() {
    return this.infra.secrets;
  }

  private get states() {
    return processStateCache(this.infra);
  }

  private get cause() {
    return { actorId: this.actor?.id ?? null, correlationId: this.correlationId, causationId: null, occurredAt: this.now };
  }

  async load<A extends AnyAggregate>(aggregate: A, id: string): Promise<{ state: StateOf<A> | null; revision: number }> {
    const { state, revision } = await load(this.infra.eventStore, aggregate, id, this.states);
    return { state: state as StateOf<A> | null, revision };
  }

  /**
   * A new record's id. Time-ordered, so the log's stream index and the read models' key index grow
   * at their ends instead of dirtying a random page per creation; and its stream is known to be
   * empty, so the creation does not read it (the append still checks that it is).
   */
  newId(aggregate: AnyAggregate): string {
    const id = newTimeOrderedId();
    this.states?.set(streamName(aggregate.name, id), { state: null, revision: -1 });
    return id;
  }

  /** Drops what this process holds of a stream that another writer (a reactor) moved on. */
  forget(aggregate: AnyAggregate, id: string): void {
    this.states?.forget(streamName(aggregate.name, id));
  }

  /** The current state of a referenced aggregate, or NOT_FOUND naming the field that referred to it. */
  async mustLoad<A extends AnyAggregate>(aggregate: A, id: string, field: string): Promise<StateOf<A>> {
    const { state } = await this.load(aggregate, id);
    if (state === null) throw notFound(field, aggregate.label);
    return state;
  }

  /**
   * A record this request changes with side effects decided from what it reads here (claims taken
   * and let go): NOT_FOUND naming `field` when there is none, CONFLICT naming it when it is being
   * removed. Every command this request then executes on it applies to it as read, or is refused
   * (see executeAt).
   */
  async readToChange<A extends AnyAggregate>(aggregate: A, id: string, field: string): Promise<StateOf<A>> {
    // Read afresh: what this process holds may be behind another writer's, and would refuse this change for nothing.
    this.forget(aggregate, id);
    const { state, revision } = await this.load(aggregate, id);
    if (state === null) throw notFound(field, aggregate.label);
    // Its decider would refuse the change too, but only after the claims were taken.
    mustNotBeRemoving(state as BeingRemoved, field, aggregate.label);
    (this.held ??= new Map()).set(streamName(aggregate.name, id), { state, revision });
    return state;
  }

  /** Decides `command` against the stream's history and appends the outcome, retrying on a race (a record read to change: only as read). */
  async execute<A extends AnyAggregate>(aggregate: A, id: string, command: CommandOf<A>): Promise<Outcome<StateOf<A>>> {
    // Most requests read nothing to change: they name no stream here (this is every command's path).
    const stream = this.held && streamName(aggregate.name, id);
    const held = stream ? this.held!.get(stream) : undefined;
    const outcome = held === undefined
      ? await execute<StateOf<A>>(this.infra.eventStore, aggregate, id, command as DomainEvent, this.cause, this.states)
      : await executeAt<StateOf<A>>(this.infra.eventStore, aggregate, id, command as DomainEvent, this.cause, held, this.states);
    // What this request appended is what it goes on from: a later command of it applies after that.
    if (stream && held !== undefined) this.held!.set(stream, { state: outcome.after, revision: outcome.revision });
    this.position = Math.max(this.position, outcome.position);
    return outcome;
  }

  /** A record as answers show it: hidden fields and those the caller may not see left out, sealed secrets opened. */
  view(aggregate: AnyAggregate, state: object | null): Doc | null {
    if (state === null) return null;
    const { _position: _ignored, [MADE_AT]: _made, ...record } = state as Doc;
    for (const field of aggregate.hidden ?? []) delete record[field];
    for (const field of withheldFrom(this.actor, aggregate.name)) delete record[field];
    return this.secrets.reveal(record);
  }

  /** The read model of one record, or NOT_FOUND naming the id field. */
  async one(aggregate: AnyAggregate, id: string, field = aggregate.idField): Promise<Doc> {
    const doc = await this.infra.readStore.get(aggregate.name, id);
    if (!doc) throw notFound(field, aggregate.label);
    return this.view(aggregate, doc)!;
  }

  /** Records of `aggregate`, all or those whose `field` is `value`, newest first. */
  async list(aggregate: AnyAggregate, field?: string, value?: FieldValue): Promise<Doc[]> {
    const docs = field === undefined
      ? await this.infra.readStore.all(aggregate.name)
      : await this.infra.readStore.find(aggregate.name, field, value ?? '');
    // Sorted before the view drops the position each was made at, which orders a burst.
    return [...docs].sort(newestFirst).map((doc) => this.view(aggregate, doc)!);
  }
}

export { newestFirst };
