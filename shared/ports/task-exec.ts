// Running a command inside the running task of a service: how a backup dumps a database where it
// runs and a restore loads one back. The container engine adapter implements it.
import type { Readable, Writable } from 'node:stream';
import type { OwnerMark } from '../domain/ownership.ts';

/** A service by its name, run in only when it carries `mark`: a service of that name Berth did not make for it has no task of its. */
export interface MarkedService {
  readonly name: string;
  readonly mark: OwnerMark;
}

export interface ExecIo {
  /** Fed to the command's standard input, which is closed when it ends. */
  readonly stdin?: Readable;
  /** Receives the command's standard output; ended when the command exits. */
  readonly stdout?: Writable;
  readonly signal?: AbortSignal;
}

export interface ExecResult {
  readonly exitCode: number;
  /** The end of what the command wrote to standard error. */
  readonly stderr: string;
}

/** Raised when the service has no running task to run the command in. */
export class NoRunningTaskError extends Error {
  constructor(readonly service: string) {
    super(`${service} has no running task`);
    this.name = 'NoRunningTaskError';
  }
}

export interface TaskExec {
  exec(service: MarkedService, command: readonly string[], io: ExecIo): Promise<ExecResult>;
}
