import type { contract } from '@berth/shared/contract/index';
import type { InputOf } from '@berth/shared/contract/operation';
import { generateSshKeyPair } from '@berth/shared/crypto/ssh-key';
import { defaultCommand } from '@berth/shared/domain/compose/command';
import { composeAggregate, type Compose, type ComposeCommand, type ComposeSourceType, type ComposeType } from '@berth/shared/domain/compose/compose';
import { serviceNames } from '@berth/shared/domain/compose/compose-file';
import { mustStayDeployable } from '@berth/shared/domain/compose/deployable';
import type { Status } from '@berth/shared/contract/schema';
import { newId, randomHex } from '@berth/shared/ids';
import { badRequest, conflict, forbidden, notFound } from '@berth/shared/errors';
import { projectNameFault } from '@berth/shared/domain/compose/project-name';
import { generatedEnv, portVariables, randomTemplatePort, summaryOf, templateById, templates, TEMPLATE_PORTS } from '@berth/shared/templates/catalogue';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';
import { COMPOSE_RUN_RULE } from '../auth/rules.ts';
import { newAppName, releaseAppName, renaming, withAppName } from './app-name.ts';
import { hostPort, release, tryClaim, withClaim } from './reservations.ts';
import { inProject, leaveProject, mayJoin, mayMoveTo, movingProject } from './project-use.ts';
import { change, one, type BuilderOf, type GroupHandlers, type Handler } from './kit.ts';
import { sshKeyChange } from './ssh-key-update.ts';
import { chosenToken, refreshedToken, sealedEnv } from './secret-update.ts';
import { recordedGitUrl } from './git-source.ts';
import { mayTakeToken, releaseDeployToken, withDeployToken } from '../deploy-token.ts';
import { composeRuntime } from './compose-runtime.ts';
import { mustKeepCreatedAt } from './created-at.ts';

type Group = typeof contract.compose;
const ID = 'composeId';

const load = (ctx: Context, composeId: string) => ctx.mustLoad(composeAggregate, composeId, ID);

/** A command on an existing compose service: answers the record after it. */
const act = <I extends { composeId: string }>(build: BuilderOf<typeof composeAggregate, I>) => change(composeAggregate, build);
const randomize = act((input: { composeId: string; prefix?: string | null }) => ({
  type: 'RandomizeCompose', data: { composeId: input.composeId, suffix: input.prefix || randomHex(8) },
}));

/**
 * The services of a compose service's file: the stored text's for `raw`; for `git` and `forge`, whose
 * file lives in the repository, those of the file its last deployment fetched (none before the first).
 */
const servicesOf = (compose: Compose): string[] => compose.sourceType === 'raw'
  ? serviceNames(compose.composeFile)
  : compose.fetchedServices ?? [];

/** Deletes a compose service, as `compose.delete` does; its appName and deploy token are free only afterwards. */
export async function removeCompose(composeId: string, ctx: Context): Promise<Doc | null> {
  await load(ctx, composeId);
  const { before } = await ctx.execute(composeAggregate, composeId, { type: 'RemoveCompose', data: { composeId } });
  if (before) {
    await releaseAppName(ctx, before.appName, composeId);
    await releaseDeployToken(ctx, composeAggregate, composeId, before.refreshToken);
    for (const port of before.publishedPorts ?? []) await release(ctx, 'hostPort', port, composeId);
    await leaveProject(ctx, before.projectId, composeId);
  }
  return ctx.view(composeAggregate, before);
}

/** A new compose service in a project (holding `publishedPorts`, claimed for `composeId`): answers the record. */
async function createCompose(ctx: Context, input: {
  projectId: string; name: string; appName?: string | undefined; description?: string | null | undefined;
  composeType?: string | undefined; composeFile?: string; env?: string | null;
}, composeId = ctx.newId(composeAggregate), publishedPorts: string[] = []): Promise<Doc | null> {
  // No "." whatever its kind: it could become a compose project's name (see projectNameFault).
  const appName = newAppName(input.appName, input.name).replaceAll('.', '-');
  const token = newId();
  return inProject(ctx, input.projectId, composeId, () => withClaim(ctx, 'appName', appName, composeId, () =>
    withDeployToken(ctx, composeAggregate, composeId, null, token, async () => {
      const { after } = await ctx.execute(composeAggregate, composeId, {
        type: 'CreateCompose',
        data: {
          composeId, name: input.name, appName, description: input.description ?? null, env: sealedEnv(ctx, input.env ?? null, null), refreshToken: ctx.secrets.seal(token),
          composeFile: input.composeFile ?? '', sourceType: 'raw', composeType: (input.composeType as ComposeType | undefined) ?? 'container-compose',
          repository: null, owner: null, branch: null, autoDeploy: null, customGitUrl: null, customGitBranch: null,
          customGitSSHKey: null, command: '', composePath: 'docker-compose.yml', composeStatus: 'idle',
          projectId: input.projectId, createdAt: ctx.now, sshPrivateKey: null,
          ...(publishedPorts.length > 0 && { publishedPorts }),
        },
      });
      return ctx.view(composeAggregate, after);
    })), () => removeCompose(composeId, ctx));
}

/** Random candidates tried in a row before the request is refused: so many misses mean the range is nearly full. */
const PORT_TRIES = 20;

/**
 * Claims `count` distinct host ports for a template's service `owner`, drawn at random from the
 * templates' range, into `claimed` (the caller lets them go if the creation fails): held from its
 * creation, as its first deploy would hold what its file publishes.
 */
async function claimTemplatePorts(ctx: Context, owner: string, count: number, claimed: number[]): Promise<void> {
  for (let misses = 0; claimed.length < count;) {
    const port = randomTemplatePort();
    if (!claimed.includes(port) && await tryClaim(ctx, 'hostPort', hostPort(port), owner)) {
      claimed.push(port);
      misses = 0;
    } else if (++misses === PORT_TRIES) {
      throw conflict(`names a template that needs a free host port from ${TEMPLATE_PORTS.first} to ${TEMPLATE_PORTS.last}, and the ${PORT_TRIES} tried are all held; let some go, or publish the port yourself with compose.create`, 'id');
    }
  }
}

/** A template as a new `raw` stack in the project, with fresh passwords, names and host ports of its own in its env. */
const deployTemplate: Handler<InputOf<Group['deployTemplate']>> = async (input, ctx) => {
  const template = templateById(input.id);
  if (!template) throw notFound('id', 'Template');
  const composeId = ctx.newId(composeAggregate);
  // Before the claims: a refusal appends nothing.
  await mayJoin(ctx, input.projectId, composeId);
  const claimed: number[] = [];
  try {
    await claimTemplatePorts(ctx, composeId, portVariables(template).length, claimed);
    const ports = [...claimed];
    return await createCompose(ctx, {
      projectId: input.projectId, name: template.name, appName: template.id, description: template.description,
      composeType: 'stack', composeFile: template.compose, env: generatedEnv(template, () => ports.shift()!),
    }, composeId, claimed.map((port) => hostPort(port)));
  } catch (error) {
    for (const port of claimed) await release(ctx, 'hostPort', hostPort(port), composeId);
    throw error;
  }
};

/** FORBIDDEN when a user without the rule's flag changes what the service runs (rules.ts); nothing is appended. */
function mayChangeWhatItRuns(ctx: Context, input: Partial<Record<string, unknown>>, current: Compose): void {
  mayChange(ctx, COMPOSE_RUN_RULE.fields.filter((field) => input[field] !== undefined && input[field] !== current[field]));
}

function mayChange(ctx: Context, changed: readonly string[]): void {
  if (ctx.seesAll || ctx.actor!.permissions[COMPOSE_RUN_RULE.flag] === true) return;
  if (changed.length > 0) {
    throw forbidden(`Changing what a compose service runs (${changed.join(', ')}) needs the permission ${COMPOSE_RUN_RULE.flag}`);
  }
}

/** A container-compose service's appName names its project: checked when either changes (one saved before is kept). */
function mustNameAProject(input: { appName?: string; composeType?: string }, current: Compose): void {
  const appName = input.appName ?? current.appName;
  const changes = (input.appName !== undefined && input.appName !== current.appName)
    || (input.composeType !== undefined && input.composeType !== current.composeType);
  const fault = changes && (input.composeType ?? current.composeType) === 'container-compose' ? projectNameFault(appName) : null;
  if (fault) throw badRequest('appName', fault);
}

const update: Handler<InputOf<Group['update']>> = async (input, ctx) => {
  // Read to change: its claims are decided from this record, so a change made meanwhile refuses this one.
  const current = await ctx.readToChange(composeAggregate, input.composeId, ID);
  // Sealed first: the same text sent back reuses the stored copy, so it reads as unchanged.
  const env = sealedEnv(ctx, input.env, current.env);
  const customGitUrl = recordedGitUrl(ctx, input.customGitUrl, current.customGitUrl);
  mayChangeWhatItRuns(ctx, { ...input, env, customGitUrl }, current);
  mustKeepCreatedAt(input.createdAt, current.createdAt);
  mustNameAProject(input, current);
  const { composeId, createdAt: _createdAt, customGitSSHKey, refreshToken, ...fields } = input;
  const command: ComposeCommand = {
    type: 'UpdateCompose',
    data: {
      ...fields,
      // The contract checks these against their lists; its schema helper leaves the type open.
      sourceType: fields.sourceType as ComposeSourceType | undefined,
      composeType: fields.composeType as ComposeType | undefined,
      composeStatus: fields.composeStatus as Status | undefined,
      ...sshKeyChange(ctx, customGitSSHKey, current),
      customGitUrl,
      env,
      // A deploy token chosen by the caller is kept sealed like a generated one, so pushes find it.
      refreshToken: chosenToken(ctx, refreshToken, current.refreshToken),
      composeId,
    },
  };
  // Every claim is checked before the first is taken, so a refusal appends nothing: the decider's
  // own judgement of the settings too (a new appName may make a stack's names too long).
  mustStayDeployable(current, command.data);
  await mayMoveTo(ctx, current.projectId, input.projectId, composeId);
  await mayTakeToken(ctx, composeAggregate, composeId, current.refreshToken, refreshToken);
  const renamed = await renaming(ctx, current.appName, input.appName, composeId);
  return withDeployToken(ctx, composeAggregate, composeId, current.refreshToken, refreshToken, () =>
    withAppName(ctx, current.appName, renamed, composeId, () =>
      movingProject(ctx, current.projectId, input.projectId, composeId, async () => {
        const { after } = await ctx.execute(composeAggregate, composeId, command);
        return ctx.view(composeAggregate, after);
      })));
};

export const compose: GroupHandlers<Group> = {
  create: (input, ctx) => createCompose(ctx, input),
  one: one(composeAggregate),
  update,
  delete: (input, ctx) => removeCompose(input.composeId, ctx),
  generateSSHKey: act((input, ctx) => {
    const { publicKey, privateKey } = generateSshKeyPair();
    return {
      type: 'GenerateComposeSSHKey',
      data: { composeId: input.composeId, customGitSSHKey: publicKey, sshPrivateKey: ctx.secrets.seal(privateKey) },
    };
  }),
  removeSSHKey: act((input) => ({ type: 'RemoveComposeSSHKey', data: { composeId: input.composeId } })),
  refreshToken: refreshedToken(composeAggregate, (refreshToken) => act((input) => ({ type: 'RefreshComposeToken', data: { composeId: input.composeId, refreshToken } }))),
  // It rewrites the file: its services and volumes get new names, so the next deploy runs new ones.
  randomizeCompose: (input, ctx) => {
    mayChange(ctx, ['composeFile']);
    return randomize(input, ctx);
  },
  allServices: async (input, ctx) => servicesOf(await load(ctx, input.composeId)),
  getDefaultCommand: async (input, ctx) => defaultCommand(await load(ctx, input.composeId)),
  ...composeRuntime,
  deployTemplate,
  templates: async () => templates().map(summaryOf),
};
