// Accounts, their tokens and two-factor, administration, and the user listing.
import { Type } from '@sinclair/typebox';
import { group, get, none, post } from './operation.ts';
import { AccountRecord, PermissionsRecord } from './records.ts';
import { Bool, Closed, CreatedAt, Email, MinStr, Nullable, OneOf, Opt, OptNull, ROLES, Str } from './schema.ts';

const profileFields = {
  rol: Opt(OneOf(ROLES)), image: Opt(Str()), secret: OptNull(Str()), token: OptNull(Str()),
  is2FAEnabled: Opt(Bool()), createdAt: CreatedAt(),
};

const TokenAnswer = Closed({ token: Str() });
/** A token, or, when two-factor is on, the account to verify a pin for. */
const LoginAnswer = Closed({ token: Opt(Str()), is2FAEnabled: Opt(Bool()), id: Opt(Str()) });
/** A repository the forge app's installation can read, with the https URL it is cloned from. */
const Repository = Closed({ name: Str(), owner: Str(), url: Str() });
/** The forge app as answers show it: its private key never leaves Berth. */
const ForgeApp = Closed({ apiUrl: Str(), appId: Str(), installationId: Str(), savedAt: Str() });

export const auth = group('auth', {
  createAdmin: post(Closed({ email: Email(), password: MinStr(8) }), AccountRecord),
  createUser: post(Closed({ password: MinStr(8), id: Str(), token: MinStr() }), AccountRecord),
  login: post(Closed({ email: Email(), password: MinStr(8) }), LoginAnswer),
  get: get(none, AccountRecord),
  logout: post(none, Bool()),
  update: post(Closed({
    email: Nullable(Email()), password: Nullable(Str()), id: Opt(Str()), ...profileFields,
  }), AccountRecord),
  generateToken: post(none, TokenAnswer),
  one: get(Closed({ id: Str() }), AccountRecord),
  updateByAdmin: post(Closed({ id: MinStr(), email: Nullable(Email()), password: Nullable(Str()), ...profileFields }), AccountRecord),
  generate2FASecret: get(none, Closed({ secret: Str(), uri: Str(), qrCodeUrl: Str() })),
  verify2FASetup: post(Closed({ pin: MinStr(6), secret: MinStr() }), AccountRecord),
  verifyLogin2FA: post(Closed({ pin: MinStr(6), id: Str() }), TokenAnswer),
  disable2FA: post(none, AccountRecord),
  verifyToken: post(none, Bool()),
});

const Flag = () => Bool();
export const admin = group('admin', {
  one: get(none, AccountRecord),
  createUserInvitation: post(Closed({ email: Email() }), Closed({ id: Str(), token: Str(), expiresAt: Str() })),
  removeUser: post(Closed({ authId: MinStr() }), AccountRecord),
  getUserByToken: get(Closed({ token: MinStr() }), Closed({ id: Str(), email: Str(), expiresAt: Nullable(Str()), isExpired: Bool() })),
  assignPermissions: post(Closed({
    userId: MinStr(),
    canCreateProjects: Flag(), canCreateServices: Flag(), canDeleteProjects: Flag(), canDeleteServices: Flag(),
    canAccessToProxyFiles: Flag(), canAccessToContainer: Flag(), canAccessToAPI: Flag(),
    accesedProjects: Type.Array(Str()), accesedServices: Type.Array(Str()),
  }), PermissionsRecord),
  cleanForgeApp: post(none, Bool()),
  getRepositories: get(none, Type.Array(Repository)),
  getBranches: get(Closed({ repo: MinStr(), owner: MinStr() }), Type.Array(Closed({ name: Str() }))),
  haveForgeConfigured: get(none, Bool()),
  // Beyond the spec: the forge app Berth acts as (its REST API, app id, installation, private key).
  saveForgeApp: post(Closed({ apiUrl: MinStr(), appId: MinStr(), installationId: MinStr(), privateKey: MinStr() }), ForgeApp),
});

export const user = group('user', {
  all: get(none, Type.Array(AccountRecord)),
  byAuthId: get(Closed({ authId: MinStr() }), AccountRecord),
  byUserId: get(Closed({ userId: MinStr() }), AccountRecord),
});
