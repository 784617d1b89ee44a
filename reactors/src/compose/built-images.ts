// The images the compose tool built for a project: named after the project and the service
// (`<project>_<service>`, the plugin's `<project>-<service>`), which its containers were created from.
// `down` keeps them; a removed project's would stay on the engine for good.
import type { ContainerSummary } from '@berth/shared/ports/container-engine';

/** The label the compose tool puts on each container: the file's service it runs. */
export const SERVICE_LABEL = 'com.docker.compose.service';

/** The built images' names among those the project's `containers` were created from. */
export function builtImageNames(containers: readonly ContainerSummary[], project: string): string[] {
  return [...new Set(containers.flatMap((container) => {
    const service = container.labels[SERVICE_LABEL];
    const image = container.image.replace(/:latest$/, '');
    return service && [`${project}_${service}`, `${project}-${service}`].includes(image) ? [image] : [];
  }))];
}
