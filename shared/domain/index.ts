// Every aggregate of Berth. Each one's stream folds into its read model (see projections).
import type { AnyAggregate } from './aggregate.ts';
import { accountAggregate } from './account/account.ts';
import { projectAggregate } from './project/project.ts';
import { sessionAggregate } from './session/session.ts';
import { reservationAggregate } from './reservation/reservation.ts';
import { usageAggregate } from './usage/usage.ts';
import { registryAggregate } from './registry/registry.ts';
import { backupAggregate } from './backup/backup.ts';
import { destinationAggregate } from './destination/destination.ts';
import { certificateAggregate } from './certificate/certificate.ts';
import { certificateFolderAggregate } from './certificate/folder.ts';
import { applicationAggregate } from './application/application.ts';
import { portAggregate } from './port/port.ts';
import { redirectAggregate } from './redirect/redirect.ts';
import { securityAggregate } from './security/security.ts';
import { composeAggregate } from './compose/compose.ts';
import { databaseAggregates } from './database/database.ts';
import { deliveryAggregate } from './notification/delivery.ts';
import { subscriptionAggregate } from './notification/subscription.ts';
import { backupRunAggregate } from './backup/run.ts';
import { SERVICE_SUMMARIES } from './service-kinds.ts';
import { deploymentAggregate } from './deployment/deployment.ts';
import { forgeAggregate } from './forge/forge.ts';

/** A read-model lookup the queries need: documents of `collection` by `field`. */
export interface Lookup {
  readonly collection: string;
  readonly field: string;
}

export const aggregates: readonly AnyAggregate[] = [
  projectAggregate, reservationAggregate, usageAggregate, accountAggregate, sessionAggregate,
  registryAggregate, backupAggregate, destinationAggregate, certificateAggregate, certificateFolderAggregate,
  applicationAggregate, portAggregate, redirectAggregate, securityAggregate,
  composeAggregate, ...Object.values(databaseAggregates), deploymentAggregate, backupRunAggregate,
  subscriptionAggregate, deliveryAggregate, forgeAggregate,
];

export const lookups: readonly Lookup[] = [
  { collection: 'account', field: 'email' },
  { collection: 'account', field: 'invitationTokenHash' },
  { collection: 'account', field: 'rol' },
  { collection: 'application', field: 'projectId' },
  ...['compose', ...Object.keys(databaseAggregates)].map((collection) => ({ collection, field: 'projectId' })),
  ...Object.keys(databaseAggregates).map((collection) => ({ collection, field: 'externalPort' })),
  { collection: 'port', field: 'applicationId' }, { collection: 'redirect', field: 'applicationId' },
  { collection: 'security', field: 'applicationId' },
  { collection: 'backup', field: 'dbalphaId' }, { collection: 'backup', field: 'dbbetaId' },
  { collection: 'backup', field: 'dbgammaId' }, { collection: 'backup', field: 'dbdeltaId' },
  { collection: 'backup', field: 'dbepsilonId' }, { collection: 'backuprun', field: 'backupId' },
  { collection: 'backup', field: 'destinationId' },
  { collection: 'application', field: 'registryId' },
  { collection: 'delivery', field: 'subscriptionId' },
  { collection: SERVICE_SUMMARIES, field: 'projectId' },
  { collection: 'deployment', field: 'applicationId' }, { collection: 'deployment', field: 'composeId' },
  { collection: 'deployment', field: 'databaseId' },
  { collection: 'deployment', field: 'status' },
];
