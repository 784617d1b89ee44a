// Which images on the engine are an application's, for its removal. They outlive the names they
// were made under: a deployment's image stays tagged in the registry repository and under the
// appName the application had then, after a change of its registry or a rename.
import type { Application } from '@berth/shared/domain/application/record';
import type { DeployerDeps } from './deps.ts';
import { appMark } from './service-spec.ts';
import { deploymentOfTag, localRepository, registryRepository, repositoryOf } from './images.ts';

/**
 * Every tag Berth put on the engine for `app`: found in its repositories as they are now and as its
 * recorded deployments named them (a pulled image re-tagged there, or a pack build, carries no mark),
 * and on the images carrying its mark, wherever they are.
 * A tag is its own when it names one of its deployments (Berth tags only `:deploy-<id>`), or when it
 * is in its repositories on an image carrying its mark. Any other tag stays: an operator's tag in
 * its repositories, another service's deployment tag on the same image (a service deploying this
 * one's image), or an operator's image built FROM one of its images (labels are inherited).
 */
export async function imagesOfApp(deps: Pick<DeployerDeps, 'engine' | 'records'>, app: Application): Promise<string[]> {
  const { label, value } = appMark(app);
  const registry = app.registryId ? await deps.records.registry(app.registryId) : null;
  // Those its deployments were pushed to too: its registry's URL or prefix, its registryId or its appName may have changed since.
  const recorded = (await deps.records.deploymentImages(app.applicationId)).map(repositoryOf);
  const repositories = [...new Set([localRepository(app), ...(registry ? [registryRepository(app, registry)] : []), ...recorded])];
  const inRepositories = new Set((await Promise.all(repositories.map((name) => deps.engine.imageTags(name)))).flat());
  const marked = new Set(await deps.engine.labelledImageTags(`${label}=${value}`));
  const isApps = async (tag: string): Promise<boolean> => {
    if (inRepositories.has(tag) && marked.has(tag)) return true;
    const deploymentId = deploymentOfTag(tag);
    return deploymentId !== null && (await deps.records.deployment(deploymentId))?.applicationId === app.applicationId;
  };
  const tags: string[] = [];
  for (const tag of new Set([...inRepositories, ...marked])) if (await isApps(tag)) tags.push(tag);
  return tags;
}
