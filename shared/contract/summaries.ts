// What each operation does, in a sentence or two a user can act on: the API document, the reference
// page and the CLI's help all read this one table. Its keys are exactly the contract's operations:
// a missing or an extra one does not compile. Taken from the spec, behaviour.md, the README and the
// handlers; the first sentence is the lead (`leadOf`), shown where a line is all there is room for.
import type { Contract } from './index.ts';
import { DEFAULT_IMAGES, type Engine } from './databases.ts';

/** Every operation's name, `<group>.<procedure>`, as the contract has them. */
export type OperationName = { [G in keyof Contract]: `${G}.${keyof Contract[G] & string}` }[keyof Contract];

/** The procedures every database group has (the five groups are made by one factory). */
type DatabaseProcedure = keyof Contract[Engine] & string;

/** A database group's operations, written once for the five engines. */
const DATABASE: Readonly<Record<DatabaseProcedure, (engine: Engine) => string>> = {
  create: (e) => `Creates a ${e} database service in a project, \`idle\` until \`${e}.deploy\`; answers the record. `
    + `\`containerImage\` defaults to \`${DEFAULT_IMAGES[e]}\`, and a password left empty is generated.`,
  one: (e) => `Answers the ${e} database with its backups.`,
  start: () => 'Scales the stopped database\'s service back up and answers the record once it accepts connections (status `done`). '
    + 'Past `BERTH_ACTION_WAIT_MS` it answers 409 "still in progress" and is done later.',
  stop: () => 'Scales the database\'s service to 0 and answers the record once done (status `idle`); its data volume is kept.',
  deploy: () => 'Deploys the database and answers once that deployment ended: the record, or 409 with the reason when it failed. '
    + 'It runs the service with its data volume `<appName>-data` and the external port when set; a failed deployment puts the service back as it was.',
  remove: () => 'Removes the database with its backups and takes its service away; answers the removed record. '
    + 'Its data volume `<appName>-data` is kept unless `BERTH_REMOVE_DATABASE_VOLUMES=on`.',
  saveExternalPort: () => 'Publishes the database on this host port, or on none with null; answers the record. '
    + 'A running database is redeployed to publish it, and the answer waits for that; a port another service holds is 409.',
  changeStatus: () => 'Sets the database\'s status to the given one (`idle`, `running`, `done` or `error`) and changes nothing else; answers the record.',
  saveEnvironment: () => 'Sets extra environment variables of the database (`KEY=value` lines), used from its next deploy; answers the record. '
    + 'The variables Berth sets from the record (user, password, database) cannot be overridden (400).',
  reload: () => 'Restarts the database\'s running tasks and answers the record once done. '
    + '`appName` must be the database\'s own; an idle database (stopped or never deployed) is refused with 409.',
  update: () => 'Changes the fields given (those left out stay) and answers the record. '
    + 'Its database name, user, passwords and `appName` cannot change once it was deployed (409); a new `externalPort` on a running database redeploys it.',
};

/** The five `<engine>.<procedure>` rows of the table, from `DATABASE`. */
function databaseRows<E extends Engine>(engine: E): Record<`${E}.${DatabaseProcedure}`, string> {
  return Object.fromEntries(Object.entries(DATABASE).map(([procedure, summary]) => [`${engine}.${procedure}`, summary(engine)])) as
    Record<`${E}.${DatabaseProcedure}`, string>;
}

const manualBackup = (engine: Engine) => `Runs the ${engine} backup now and answers the run once it ended: its outcome, object key and size, or its reason. `
  + `A backup of another kind is refused (400); past \`BERTH_ACTION_WAIT_MS\` the answer is 409 naming the run, which \`backup.runs\` shows when it ends.`;

export const SUMMARIES: Readonly<Record<OperationName, string>> = {
  'project.create': 'Creates a project, which groups services; answers the record. '
    + 'An account of role `user` needs `canCreateProjects`, and the new project is added to its `accesedProjects`.',
  'project.one': 'Answers the project with its services, by kind: applications, compose services and each kind of database.',
  'project.all': 'Lists the projects this account may see, newest first, each with the services in it that the account may see.',
  'project.remove': 'Removes the project and every service in it, each with its children (ports, backups, …); answers the removed project. '
    + 'Needs `canDeleteProjects` and the right to delete every service in it.',
  'project.update': 'Sets the project\'s name and description; answers the updated record.',

  'application.create': 'Creates an application in a project, `idle`, deploying from a forge repository until another source is saved; answers the record. '
    + 'Its `appName` (the runtime name) is made of the given appName, else the name, plus `-` and 6 random hex characters.',
  'application.one': 'Answers the application with its ports, redirects, basic-auth users and deployments (newest first).',
  'application.reload': 'Restarts the application\'s running tasks without a rebuild and answers the record once the engine did it (status `done`). '
    + '`appName` must be the application\'s own; an idle application (stopped or never deployed) is refused with 409.',
  'application.delete': 'Deletes the application with its ports, redirects and basic-auth users, and takes its service off the engine; answers the removed record. '
    + 'Its `appName` is free for another service afterwards.',
  'application.stop': 'Scales the application\'s service to 0 (a global or job service, which has no scale, is taken off the engine) and answers the record once done (status `idle`). '
    + 'Deployments asked before it are cancelled first, so none brings the service back up.',
  'application.start': 'Scales the stopped application back to its replicas (a global or job service is made again with the image its last deployment ran) and answers the record once done (status `done`). '
    + 'Past `BERTH_ACTION_WAIT_MS` it answers 409 "still in progress" and is done later.',
  'application.redeploy': 'Queues a deployment that rebuilds the source already fetched (an image source pulls the same reference again); answers the queued deployment at once. '
    + 'Follow it with `deployment.logs`.',
  'application.deploy': 'Queues a deployment that fetches the source again (clone or pull), builds it and rolls the service out; answers the queued deployment at once. '
    + 'Refused (400) while the source lacks what it needs: `containerImage`, `customGitUrl`, or `repository` and `owner`.',
  'application.saveEnvironment': 'Sets the application\'s environment, one `KEY=value` a line (`#` starts a comment), used from its next deploy; answers the record.',
  'application.saveBuildType': 'Sets how the application is built, `containerfile` or one of the three pack builders; answers the record. '
    + '`containerfile` uses the runtime\'s own builder, with the `containerfile` text when set, else the file in the build path.',
  'application.saveForgeProvider': 'Makes a forge repository (`owner`, `repository`, `branch`, `buildPath`) the application\'s source; answers the record. '
    + 'Deploying it needs the forge app configured (`admin.saveForgeApp`).',
  'application.saveContainerProvider': 'Makes a container image the application\'s source, pulled with `username` and `password` when they are given; answers the record.',
  'application.saveGitProdiver': 'Makes a git repository (`customGitUrl`, `customGitBranch`, `customGitBuildPath`) the application\'s source; answers the record. '
    + 'It is cloned with the application\'s SSH key when it has one (`application.generateSSHKey`). '
    + 'A path on the Berth host or a `file:` URL is for admins only (403 for anyone else).',
  'application.generateSSHKey': 'Makes a new SSH key pair for cloning the git source; answers the record, whose `customGitSSHKey` is the public key to give the repository. '
    + 'The private key stays sealed in Berth.',
  'application.removeSSHKey': 'Removes the application\'s SSH key pair; answers the record.',
  'application.markRunning': 'Sets the application\'s status to `running` (nothing changes when it already is); answers the record.',
  'application.update': 'Changes the fields given (those left out stay), each checked as its own operation checks it; answers the updated record. '
    + '`appName` can change only until the first deploy (409 after), and `labelsOrch` may not set `berth.*` or the engine\'s own labels.',
  'application.refreshToken': 'Replaces the application\'s deploy token, the credential of push to deploy (`POST /api/deploy/<refreshToken>`); answers the record. '
    + 'The old token stops working.',
  'application.cleanQueues': 'Cancels the application\'s queued deployments (a running one goes on); answers the record.',
  'application.readProxyConfig': 'Answers the text of the application\'s proxy configuration file, or null when there is none. Needs `canAccessToProxyFiles`.',
  'application.updateProxyConfig': 'Saves your proxy configuration (YAML) for the application, checked first; answers the record. '
    + 'Its names must not be another application\'s and it may reach only services you manage; Berth keeps writing the service, middleware and TLS parts itself. Needs `canAccessToProxyFiles`.',
  'application.readAppMonitoring': 'Answers one sample of CPU, memory, network and block I/O of the running containers of the service named `appName` (of any kind), summed and one by one. '
    + 'Needs `canAccessToContainer` and access to the service.',

  'compose.create': 'Creates a compose service in a project: an empty stored file (`raw` source), `container-compose` unless `composeType` is `stack`, status `idle`; answers the record. '
    + 'Set its file and source with `compose.update`.',
  'compose.one': 'Answers the compose service\'s record.',
  'compose.update': 'Changes the fields given (those left out stay); answers the updated record. '
    + 'Changing what it runs (`composeFile`, `command`, `composePath`, `composeType`, `sourceType`, the source fields or `env`) needs `canCreateServices`; `appName` can change only until the first deploy.',
  'compose.delete': 'Deletes the compose service and removes its services, containers and networks from the engine, keeping named volumes; answers the removed record.',
  'compose.cleanQueues': 'Cancels the compose service\'s queued deployments (a running one goes on); answers the record.',
  'compose.deploy': 'Queues a deployment that fetches the file (for `raw`, the stored one) and brings it up as a stack or a compose project; answers the queued deployment at once. '
    + 'Refused (400) while the source lacks its file or repository.',
  'compose.redeploy': 'Queues a deployment of the file already fetched (no new clone); answers the queued deployment at once.',
  'compose.stop': 'Stops the compose service (its stack scaled to 0 and its project\'s containers stopped) and answers the record once done (status `idle`).',
  'compose.generateSSHKey': 'Makes a new SSH key pair for cloning the git source; answers the record, whose `customGitSSHKey` is the public key to give the repository. '
    + 'The private key stays sealed in Berth.',
  'compose.refreshToken': 'Replaces the compose service\'s deploy token, the credential of push to deploy (`POST /api/deploy/compose/<refreshToken>`); answers the record. '
    + 'The old token stops working.',
  'compose.removeSSHKey': 'Removes the compose service\'s SSH key pair; answers the record.',
  'compose.allServices': 'Lists the service names of the compose file: the stored file\'s for `raw`, '
    + 'else those of the file the last deployment fetched (none before the first deploy).',
  'compose.getDefaultCommand': 'Answers the command line Berth runs to bring the service up: `docker stack deploy …` for a stack, '
    + '`docker compose -p … -f … up -d --build --remove-orphans` for a compose project.',
  'compose.randomizeCompose': 'Adds `-<prefix>` to the name of every service, named volume and network of the stored file and to every reference to them, so the same file can run twice side by side; answers the record. '
    + 'With no prefix it adds 8 random hex characters; needs `canCreateServices`.',
  'compose.deployTemplate': 'Creates a `stack` compose service in the project from the template `id` (see `compose.templates`); answers the record, not deployed yet (`compose.deploy`). '
    + 'It gets fresh passwords, and a free host port from 20000 to 32767 for its web entry point (409 when none is found).',
  'compose.templates': 'Lists the templates `compose.deployTemplate` can make a compose service from.',

  ...databaseRows('dbalpha'),
  ...databaseRows('dbbeta'),
  ...databaseRows('dbgamma'),
  ...databaseRows('dbdelta'),
  ...databaseRows('dbepsilon'),

  'backup.create': 'Creates a backup of a database (`databaseType` and its `<engine>Id`) to a destination, run on its cron `schedule` while `enabled` (the default); answers the record. '
    + 'Each run uploads `<prefix>/<ISO timestamp>.<ext>.gz`, and `keepLatest` keeps only that many of the newest.',
  'backup.one': 'Answers the backup with the id, name and bucket of its destination.',
  'backup.update': 'Changes the backup\'s schedule, prefix, destination, database name, `enabled` (null leaves it) and `keepLatest`; answers the record.',
  'backup.remove': 'Removes the backup; the objects it uploaded stay in the bucket. Answers the removed record.',
  'backup.manualBackupDbgamma': manualBackup('dbgamma'),
  'backup.manualBackupDbbeta': manualBackup('dbbeta'),
  'backup.manualBackupDbalpha': manualBackup('dbalpha'),
  'backup.manualBackupDbdelta': manualBackup('dbdelta'),
  'backup.manualBackupDbepsilon': manualBackup('dbepsilon'),
  'backup.runs': 'Lists the backup\'s runs (backups and restores), newest first, each with its outcome, object key, size or reason.',
  'backup.restore': 'Loads a dump into the backup\'s database, or into another of its kind (its `<engine>Id`), and answers the run once it ended. '
    + '`key` names the object (one of the backup\'s); left out, the latest successful run\'s is used.',

  'destination.create': 'Records an S3-compatible bucket that backups upload to (the secret key is kept sealed); answers the record. Admin only.',
  'destination.testConnection': 'Reaches the bucket with these settings and answers `{ ok, bucket }`, or 400 with the server\'s reason naming the field at fault; nothing is stored. Admin only.',
  'destination.one': 'Answers the destination\'s record. Admin only.',
  'destination.all': 'Lists the destinations, newest first. Admin only.',
  'destination.remove': 'Removes the destination; refused (409) while backups use it. Admin only.',
  'destination.update': 'Replaces the destination\'s settings (every field is required); answers the record. Admin only.',

  'registry.create': 'Records an image registry, which applications set to it (`registryId`) push their built images to; answers the record. '
    + 'Images a compose file names from its host are pulled with its login. Admin only.',
  'registry.remove': 'Removes the registry, refused (409) while applications use it; for the self-hosted one its service goes too (its images\' volume stays). Admin only.',
  'registry.update': 'Changes the fields given; the self-hosted registry\'s service is written again with the new login. Answers the record. Admin only.',
  'registry.all': 'Lists the registries, newest first; passwords are shown to admins only.',
  'registry.one': 'Answers the registry\'s record; its password is shown to admins only.',
  'registry.testRegistry': 'Logs in to the registry through the container engine with these credentials and answers true, or 400 with the registry\'s reason; nothing is stored. Admin only.',
  'registry.enableSelfHostedRegistry': 'Runs an image registry with this login as the swarm service `berth-registry`, published on the port `registryUrl` names, and records it; answers the record. '
    + 'Its images are kept in the volume `berth-registry-data`. Admin only; a second one is refused.',

  'redirects.create': 'Adds a redirect to the application: requests matching `regex` go to `replacement`, permanently when `permanent`; '
    + 'its proxy file is rewritten. Answers the record.',
  'redirects.one': 'Answers the redirect\'s record.',
  'redirects.delete': 'Removes the redirect from the application and its proxy file; answers the removed record.',
  'redirects.update': 'Replaces the redirect\'s `regex`, `replacement` and `permanent`; answers the record.',

  'port.create': 'Publishes the application\'s `targetPort` on host port `publishedPort` (`tcp` unless `protocol` says `udp`) from its next deploy; answers the record. '
    + 'A host port another service holds is 409.',
  'port.one': 'Answers the port\'s record.',
  'port.delete': 'Removes the port from the application (the host port stays held until its next successful deploy); answers the removed record.',
  'port.update': 'Changes the port\'s published and target ports (and protocol when given), applied at the application\'s next deploy; answers the record.',

  'security.create': 'Adds a basic-auth user to the application, whose proxy file then asks for a login; answers the record. '
    + 'A username the application already has is 409.',
  'security.one': 'Answers the basic-auth user\'s record.',
  'security.delete': 'Removes the basic-auth user from the application; answers the removed record.',
  'security.update': 'Changes the basic-auth user\'s username and password; answers the record.',

  'certificates.create': 'Stores a TLS certificate (PEM) and its private key, which must match it, for the proxy; answers the record. '
    + 'Its files go in `certificatePath` (a folder of its own). Admin only.',
  'certificates.one': 'Answers the certificate\'s record. Admin only.',
  'certificates.remove': 'Removes the certificate and its files; answers the removed record. Admin only.',
  'certificates.all': 'Lists the certificates, newest first. Admin only.',

  'auth.createAdmin': 'Creates the first admin account; send the setup token Berth printed at first start as the Bearer token. '
    + 'Works once: 409 once an admin exists.',
  'auth.createUser': 'Accepts an invitation: sets the password of the invited account `id`, proven by the invitation `token` from `admin.createUserInvitation`. '
    + 'Needs no Bearer token; the invitation token is used once and expires.',
  'auth.login': 'Signs in with email and password: answers `{ token }`, or `{ is2FAEnabled: true, id }` when two-factor is on (then `auth.verifyLogin2FA`). '
    + 'Needs no Bearer token; failed attempts past the limit answer 429.',
  'auth.get': 'Answers the account the token belongs to.',
  'auth.logout': 'Revokes the token the call was made with; answers true.',
  'auth.update': 'Changes your own account (email, password or image; null leaves email and password as they are); answers the account. '
    + 'A new email or password needs a sign-in with the password in the last five minutes, and a new password ends your other tokens.',
  'auth.generateToken': 'Issues a long-lived API token for your account (kept hashed; revoke it with `auth.logout`); answers `{ token }`. Needs `canAccessToAPI`.',
  'auth.one': 'Answers the account `id`. Admin only.',
  'auth.updateByAdmin': 'Changes any account\'s email, password, image or role; answers the account. '
    + 'Admin only; an admin cannot change its own role, and the first admin stays an admin.',
  'auth.generate2FASecret': 'Answers a new two-factor secret with its `otpauth://` URI and a QR code image (data URL); nothing is stored until `auth.verify2FASetup`.',
  'auth.verify2FASetup': 'Turns two-factor on with `secret`, if `pin` is valid for it; answers the account.',
  'auth.verifyLogin2FA': 'Completes a two-factor sign-in: the `id` `auth.login` answered and the current pin, within five minutes of the password; answers `{ token }`. '
    + 'A pin is accepted once.',
  'auth.disable2FA': 'Turns two-factor off for your account; needs a sign-in with the password in the last five minutes. Answers the account.',
  'auth.verifyToken': 'Answers true when the token used is valid (401 when it is not).',

  'admin.one': 'Answers the admin account. Admin only.',
  'admin.createUserInvitation': 'Invites a person by email: answers `{ id, token, expiresAt }` to hand to them for `auth.createUser`. '
    + 'Admin only; the invitation expires after `BERTH_INVITATION_LIFETIME_SECONDS` (24 h by default).',
  'admin.removeUser': 'Removes an account of role `user`; its tokens stop working. Admin only; an admin account cannot be removed.',
  'admin.getUserByToken': 'Answers the pending invitation an invitation token belongs to: the account id, email, `expiresAt` and `isExpired`. Admin only.',
  'admin.assignPermissions': 'Sets a user\'s permissions: the flags, and the projects and services it may reach (ids added must exist); answers the permissions record. Admin only.',
  'admin.cleanForgeApp': 'Forgets the forge app Berth acts as (`admin.saveForgeApp`); answers true. Admin only.',
  'admin.getRepositories': 'Lists the repositories the forge app\'s installation can read, with their https clone URLs. Admin only.',
  'admin.getBranches': 'Lists the branches of the forge repository `owner`/`repo`. Admin only.',
  'admin.haveForgeConfigured': 'Answers whether a forge app is configured (`admin.saveForgeApp`). Admin only.',
  'admin.saveForgeApp': 'Sets the forge app Berth acts as: its API URL, app id, installation id and PEM private key (kept sealed, never answered); answers it without the key. Admin only.',

  'container.getContainers': 'Lists every container on the engine, running or not, as it reports them now; a user, those of the services it has access to. Needs `canAccessToContainer`.',
  'container.getConfig': 'Answers the engine\'s inspection of a container. A user is shown only its own services\' containers: any other answers 404, as an unknown id does. '
    + 'Needs `canAccessToContainer`.',
  'container.getContainersByAppNameMatch': 'Lists the containers Berth made for the service `appName`, found by their names. Needs `canAccessToContainer` and access to the service.',
  'container.getContainersByAppLabel': 'Lists the containers Berth made for the service `appName`, found by their labels (swarm service, stack or compose project). '
    + 'Needs `canAccessToContainer` and access to the service.',

  'cluster.getNodes': 'Lists the swarm\'s nodes with their role, availability, state, address and engine version. Admin only.',
  'cluster.removeWorker': 'Drains the worker node `nodeId`, so its tasks move to other nodes, and removes it from the swarm; answers true. '
    + 'Admin only; a manager node is refused (409).',
  'cluster.addWorker': 'Answers the `docker swarm join` command a new worker node runs to join, with its token and the manager\'s address. Admin only.',
  'cluster.addManager': 'Answers the `docker swarm join` command a new manager node runs to join, with its token and the manager\'s address. Admin only.',

  'user.all': 'Lists every account. Admin only.',
  'user.byAuthId': 'Answers the account `authId`: your own, or any for an admin.',
  'user.byUserId': 'Answers the account `userId`: your own, or any for an admin.',

  'deployment.all': 'Lists a service\'s deployments, newest first: give exactly one of `applicationId`, `composeId` or `databaseId`.',
  'deployment.one': 'Answers the deployment as the log holds it now: its kind, status and, when it failed, the reason.',
  'deployment.logs': 'Answers the deployment\'s log so far with its status. With `follow=true` it streams server-sent events instead, a `line` event a line, then `end` once the deployment ended.',
  'deployment.cancel': 'Cancels the deployment: a queued one at once, a running one stopped (the answer waits, bounded, for its end); answers the deployment.',
  'deployment.rollback': 'Queues a new deployment of the application that runs the image of an earlier successful deployment again, without a build; answers the queued deployment.',

  'events.all': 'Answers a page of the event log, oldest first, filtered by stream, aggregate, type, actor, time or position, with the log\'s `head`. '
    + 'Pages hold up to 1,000 events (`limit`); `nextCursor`, sent with the same filters, continues. Admin only.',
  'events.stream': 'Answers a page of one aggregate\'s history (`<aggregate>-<id>`), each event with its revision; `nextCursor` continues it. Admin only.',
  'events.follow': 'Follows the selection live: server-sent events with `accept: text/event-stream`, else a long poll whose answer carries the `nextCursor` to poll on from. '
    + 'Admin only; secrets stay sealed.',
  'events.export': 'Answers the whole selection as NDJSON, one recorded event a line (secrets sealed, password and token hashes left out). Admin only.',

  'projections.status': 'Lists each read model\'s checkpoint and how far it is behind the log\'s head, in events and in seconds. Admin only.',
  'projections.rebuild': 'Rebuilds one read model (`name`), or all, while Berth serves, switching to the new one in one transaction; answers once done, or `running` after two minutes. '
    + 'Admin only.',

  'notification.create': 'Subscribes an http(s) URL to event types, each such event POSTed to it as JSON; answers the subscription. '
    + 'Each is signed in `x-berth-signature` with `secret` (generated when left out). Admin only.',
  'notification.one': 'Answers the subscription, with its signing secret. Admin only.',
  'notification.all': 'Lists the subscriptions, newest first. Admin only.',
  'notification.remove': 'Removes the subscription; no more events are sent to it. Answers the removed subscription. Admin only.',
  'notification.deliveries': 'Lists every delivery to the subscription with its attempts, newest first. Admin only.',
};

/** The summary of an operation by its name; undefined for a name that is none of the contract's. */
export const summaryOf = (name: string): string | undefined =>
  Object.hasOwn(SUMMARIES, name) ? SUMMARIES[name as OperationName] : undefined;

/** The first sentence of a summary: what a one-line listing shows. */
export const leadOf = (summary: string): string => summary.split(/(?<=\.)\s+(?=[A-Z`])/)[0]!;
