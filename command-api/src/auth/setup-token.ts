import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reservationAggregate, reservationKey, type Reservation } from '@berth/shared/domain/reservation/reservation';
import { streamName } from '@berth/shared/events/event';
import { newId } from '@berth/shared/ids';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { madeOnce } from '@berth/shared/runtime/made-once';
import { load } from '@berth/shared/runtime/execute';

/** The reservation that makes the first admin the only one made with the setup token. */
const ADMIN_KEY = reservationKey('instance', 'admin');

const fileOf = (infra: Infrastructure) => join(infra.config.dataDir, 'setup-token');

export async function adminExists(infra: Infrastructure): Promise<boolean> {
  const { events } = await infra.eventStore.readStream(streamName(reservationAggregate.name, ADMIN_KEY));
  return events.length > 0;
}

/**
 * The first admin's id, null before there is one: the holder of that reservation, which is never let
 * go. Read from the log, not from what this process holds: another process may have made the admin.
 */
export async function firstAdminId(infra: Infrastructure): Promise<string | null> {
  const { state } = await load(infra.eventStore, reservationAggregate, ADMIN_KEY);
  return (state as Reservation | null)?.owner ?? null;
}

/** While no admin exists: the one-time setup token, made once, kept in the data folder and printed. */
export async function announceSetupToken(infra: Infrastructure, print: (line: string) => void): Promise<void> {
  if (await adminExists(infra)) return;
  print(`setup token: ${madeOnce(fileOf(infra), () => newId(32))} (the Bearer token of auth.createAdmin; from a shell: BERTH_TOKEN=<it> berth auth create-admin --email … --password …)`);
}

export function isSetupToken(infra: Infrastructure, candidate: string): boolean {
  const file = fileOf(infra);
  if (!existsSync(file)) return false;
  const expected = Buffer.from(readFileSync(file, 'utf8').trim());
  const given = Buffer.from(candidate);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const retireSetupToken = (infra: Infrastructure) => rmSync(fileOf(infra), { force: true });
