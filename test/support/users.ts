// Accounts of role `user`, made the way a person gets one: invited, joined, logged in.
import type { TestBerth } from './berth.ts';

export interface TestUser {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  token: string;
}

let counter = 0;

export async function invitedUser(berth: TestBerth, permissions: Partial<Record<string, unknown>> = {}): Promise<TestUser> {
  const email = `user${++counter}-${Date.now()}@berth.test`;
  const password = 'user password 1';
  const invitation = await berth.ok('admin.createUserInvitation', { email });
  await berth.ok('auth.createUser', { id: invitation.id, token: invitation.token, password });
  const user = { id: invitation.id, email, password, token: '' };
  await setPermissions(berth, user, permissions);
  user.token = (await berth.call('auth.login', { email, password }, { token: null })).body.token;
  return user;
}

export async function setPermissions(berth: TestBerth, user: { id: string }, permissions: Partial<Record<string, unknown>>) {
  await berth.ok('admin.assignPermissions', {
    userId: user.id,
    canCreateProjects: false, canCreateServices: false, canDeleteProjects: false, canDeleteServices: false,
    canAccessToProxyFiles: false, canAccessToContainer: false, canAccessToAPI: false,
    accesedProjects: [], accesedServices: [],
    ...permissions,
  });
}

export const ALL_FLAGS = {
  canCreateProjects: true, canCreateServices: true, canDeleteProjects: true, canDeleteServices: true,
  canAccessToProxyFiles: true, canAccessToContainer: true, canAccessToAPI: true,
};
