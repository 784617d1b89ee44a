// Accounts, their tokens and two-factor, administration, and the user listing.
import { Type } from '@sinclair/typebox';
import { group, get, none, post } from './operation.ts';
import { Bool, Closed, Email, MinStr, Nullable, OneOf, Opt, OptNull, ROLES, Str } from './schema.ts';

const profileFields = {
  rol: Opt(OneOf(ROLES)), image: Opt(Str()), secret: OptNull(Str()), token: OptNull(Str()),
  is2FAEnabled: Opt(Bool()), createdAt: Opt(Str()),
};

export const auth = group('auth', {
  createAdmin: post(Closed({ email: Email(), password: MinStr(8) })),
  createUser: post(Closed({ password: MinStr(8), id: Str(), token: MinStr() })),
  login: post(Closed({ email: Email(), password: MinStr(8) })),
  get: get(none),
  logout: post(none),
  update: post(Closed({
    email: Nullable(Email()), password: Nullable(Str()), id: Opt(Str()), ...profileFields,
  })),
  generateToken: post(none),
  one: get(Closed({ id: Str() })),
  updateByAdmin: post(Closed({ id: MinStr(), email: Nullable(Email()), password: Nullable(Str()), ...profileFields })),
  generate2FASecret: get(none),
  verify2FASetup: post(Closed({ pin: MinStr(6), secret: MinStr() })),
  verifyLogin2FA: post(Closed({ pin: MinStr(6), id: Str() })),
  disable2FA: post(none),
  verifyToken: post(none),
});

const Flag = () => Bool();
export const admin = group('admin', {
  one: get(none),
  createUserInvitation: post(Closed({ email: Email() })),
  removeUser: post(Closed({ authId: MinStr() })),
  getUserByToken: get(Closed({ token: MinStr() })),
  assignPermissions: post(Closed({
    userId: MinStr(),
    canCreateProjects: Flag(), canCreateServices: Flag(), canDeleteProjects: Flag(), canDeleteServices: Flag(),
    canAccessToProxyFiles: Flag(), canAccessToContainer: Flag(), canAccessToAPI: Flag(),
    accesedProjects: Type.Array(Str()), accesedServices: Type.Array(Str()),
  })),
  cleanForgeApp: post(none),
  getRepositories: get(none),
  getBranches: get(Closed({ repo: MinStr(), owner: MinStr() })),
  haveForgeConfigured: get(none),
});

export const user = group('user', {
  all: get(none),
  byAuthId: get(Closed({ authId: MinStr() })),
  byUserId: get(Closed({ userId: MinStr() })),
});
