// Berth is never left without an admin. The first admin, the account made with the setup token,
// is the one sure to stay: nobody takes its role and nobody removes it, whether it is removed
// directly or demoted first. Which account that is, the log decided once and for all (the
// reservation that let only one admin be made with the setup token is never let go), and its role
// never goes from admin to user again: so two admins demoting each other at once cannot both leave
// Berth without one, whatever else the two requests race on. Counting the admins left instead would
// need every promotion and demotion to go through one stream; this rule needs none.
import { conflict } from '../../errors.ts';
import type { Account, Role } from './account.ts';

/** The first admin as the log says now: its id, and whether its account is an admin (false once removed). */
export interface FirstAdmin {
  readonly id: string;
  readonly isAdmin: boolean;
}

/** Whether `rol` takes the admin role from `account`. */
export const demotes = (account: Pick<Account, 'rol'>, rol: Role | undefined): boolean => account.rol === 'admin' && rol === 'user';

/**
 * Refuses a demotion that may leave Berth without an admin: of the first admin, always; of another
 * while the first admin is not one (a log written before this rule, when an admin could demote it),
 * since nothing then keeps the others from demoting each other down to none.
 */
export function mustKeepAnAdmin(account: Pick<Account, 'id'>, first: FirstAdmin | null): void {
  if (first?.id === account.id) {
    throw conflict('cannot be taken from the first admin (the account made with the setup token): it stays an admin, so that Berth always has one', 'rol');
  }
  if (!first?.isAdmin) {
    throw conflict('cannot be taken from this admin now: the first admin is no longer one, so this may be the last admin; make the first admin an admin again first', 'rol');
  }
}

/** Refuses removing the first admin, whatever its role now: demoting it first is no way around its staying. */
export function mustNotBeFirstAdmin(account: Pick<Account, 'id'>, firstAdminId: string | null): void {
  if (account.id === firstAdminId) {
    throw conflict('names the first admin (the account made with the setup token), which is never removed, so that Berth always has an admin', 'authId');
  }
}
