// The event types a webhook can subscribe to: every event of Berth's aggregates but those of the
// notifications themselves (a notification about a notification would feed itself). The list is
// typed against the aggregates' own event unions, so the compiler refuses one missing or one that
// no aggregate appends: it cannot drift from the domain.
import type { Aggregate } from '../aggregate.ts';
import type { accountAggregate } from '../account/account.ts';
import type { applicationAggregate } from '../application/application.ts';
import type { backupAggregate } from '../backup/backup.ts';
import type { backupRunAggregate } from '../backup/run.ts';
import type { certificateAggregate } from '../certificate/certificate.ts';
import type { certificateFolderAggregate } from '../certificate/folder.ts';
import type { composeAggregate } from '../compose/compose.ts';
import type { databaseAggregates } from '../database/database.ts';
import type { deploymentAggregate } from '../deployment/deployment.ts';
import type { destinationAggregate } from '../destination/destination.ts';
import type { forgeAggregate } from '../forge/forge.ts';
import type { portAggregate } from '../port/port.ts';
import type { projectAggregate } from '../project/project.ts';
import type { redirectAggregate } from '../redirect/redirect.ts';
import type { registryAggregate } from '../registry/registry.ts';
import type { reservationAggregate } from '../reservation/reservation.ts';
import type { securityAggregate } from '../security/security.ts';
import type { sessionAggregate } from '../session/session.ts';
import type { usageAggregate } from '../usage/usage.ts';

export type EventTypeOf<A> = A extends Aggregate<infer _S, infer _C, infer E> ? E['type'] : never;

/** The aggregates of shared/domain/index.ts but subscription and delivery (a test checks none is left out). */
type Notified =
  | typeof accountAggregate | typeof applicationAggregate | typeof backupAggregate | typeof backupRunAggregate
  | typeof certificateAggregate | typeof certificateFolderAggregate | typeof composeAggregate
  | (typeof databaseAggregates)[keyof typeof databaseAggregates] | typeof deploymentAggregate | typeof destinationAggregate
  | typeof forgeAggregate | typeof portAggregate | typeof projectAggregate | typeof redirectAggregate | typeof registryAggregate
  | typeof reservationAggregate | typeof securityAggregate | typeof sessionAggregate | typeof usageAggregate;

export type SendableType = EventTypeOf<Notified>;

const SENDABLE: Readonly<Record<SendableType, true>> = {
  AccessGranted: true, AccountRemoved: true, AdminCreated: true, ApiTokenIssued: true, ApplicationActionFailed: true,
  ApplicationActionRequested: true, ApplicationActionSucceeded: true, ApplicationBuildTypeSaved: true,
  ApplicationContainerProviderSaved: true, ApplicationCreated: true, ApplicationDeleted: true, ApplicationEngineChanged: true,
  ApplicationEnvironmentSaved: true, ApplicationForgeProviderSaved: true, ApplicationGitProviderSaved: true,
  ApplicationMarkedRunning: true, ApplicationPortsPublished: true, ApplicationProxyConfigUpdated: true,
  ApplicationRemovalBegun: true, ApplicationSSHKeyGenerated: true, ApplicationSSHKeyRemoved: true,
  ApplicationStatusChanged: true, ApplicationTokenRefreshed: true, ApplicationUpdated: true, BackupCreated: true,
  BackupRemoved: true, BackupRunFailed: true, BackupRunPruned: true, BackupRunRequested: true, BackupRunStarted: true,
  BackupRunSucceeded: true, BackupUpdated: true, CertificateCreated: true, CertificateFolderEntered: true,
  CertificateFolderLeft: true, CertificateFolderTaken: true, CertificateRemoved: true, ComposeActionFailed: true,
  ComposeActionRequested: true, ComposeActionSucceeded: true, ComposeCreated: true, ComposeEngineChanged: true, ComposeFileFetched: true,
  ComposeRandomized: true, ComposeRemovalBegun: true, ComposeRemoved: true, ComposeSSHKeyGenerated: true,
  ComposeSSHKeyRemoved: true, ComposeStatusChanged: true, ComposeTokenRefreshed: true, ComposeUpdated: true,
  DbalphaActionFailed: true, DbalphaActionRequested: true, DbalphaActionSucceeded: true, DbalphaCreated: true, DbalphaEngineChanged: true,
  DbalphaRemovalBegun: true, DbalphaRemoved: true, DbalphaStatusChanged: true, DbalphaUpdated: true,
  DbbetaActionFailed: true, DbbetaActionRequested: true, DbbetaActionSucceeded: true, DbbetaCreated: true, DbbetaEngineChanged: true,
  DbbetaRemovalBegun: true, DbbetaRemoved: true, DbbetaStatusChanged: true, DbbetaUpdated: true,
  DbdeltaActionFailed: true, DbdeltaActionRequested: true, DbdeltaActionSucceeded: true, DbdeltaCreated: true, DbdeltaEngineChanged: true,
  DbdeltaRemovalBegun: true, DbdeltaRemoved: true, DbdeltaStatusChanged: true, DbdeltaUpdated: true,
  DbepsilonActionFailed: true, DbepsilonActionRequested: true, DbepsilonActionSucceeded: true,
  DbepsilonCreated: true, DbepsilonEngineChanged: true, DbepsilonRemovalBegun: true, DbepsilonRemoved: true, DbepsilonStatusChanged: true,
  DbepsilonUpdated: true, DbgammaActionFailed: true, DbgammaActionRequested: true, DbgammaActionSucceeded: true,
  DbgammaCreated: true, DbgammaEngineChanged: true, DbgammaRemovalBegun: true, DbgammaRemoved: true, DbgammaStatusChanged: true,
  DbgammaUpdated: true, DeploymentCancellationRequested: true, DeploymentCancelled: true, DeploymentFailed: true,
  DeploymentFinished: true, DeploymentPruned: true, DeploymentQueued: true, DeploymentStarted: true,
  DestinationCreated: true, DestinationRemoved: true, DestinationUpdated: true, ForgeAppRemoved: true,
  ForgeAppSaved: true, InvitationAccepted: true, NameHandedOver: true, NameReleased: true, NameReserved: true,
  PermissionsAssigned: true, PortCreated: true, PortRemoved: true, PortUpdated: true, ProfileUpdated: true,
  ProjectCreated: true, ProjectRemoved: true, ProjectUpdated: true, RedirectCreated: true, RedirectRemoved: true,
  RedirectUpdated: true, RegistryCreated: true, RegistryRemoved: true, RegistryUpdated: true, SecurityCreated: true,
  SecurityRemoved: true, SecurityUpdated: true, SessionRevoked: true, SignInChallengeIssued: true,
  SignInChallengeUsed: true, TwoFactorDisabled: true, TwoFactorEnabled: true, TwoFactorPinUsed: true,
  UsageEnded: true, UsageRetired: true, UsageStarted: true, UserInvited: true,
};

export const SENDABLE_TYPES: readonly SendableType[] = Object.keys(SENDABLE).sort() as SendableType[];

const sendable: ReadonlySet<string> = new Set(SENDABLE_TYPES);
export const isSendable = (type: string): type is SendableType => sendable.has(type);
