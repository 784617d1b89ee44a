// The secrets a deployment of an application knows, opened, so its log can mask every one of them.
import { isSealed, type SecretBox } from '@berth/shared/crypto/secrets';
import type { Application } from '@berth/shared/domain/application/record';
import type { ReadStore } from '@berth/shared/ports/read-store';

function sealedIn(value: unknown, found: string[]): string[] {
  if (isSealed(value)) found.push(value);
  else if (Array.isArray(value)) for (const item of value) sealedIn(item, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) sealedIn(item, found);
  return found;
}

/** Every sealed value found in `value`, opened. */
export const openedIn = (value: unknown, box: SecretBox): string[] => sealedIn(value, []).map((sealed) => {
  try { return box.open(sealed as `enc:v1:${string}`); } catch { return ''; }
});

export async function secretsOf(application: Application, readStore: ReadStore, box: SecretBox): Promise<string[]> {
  const registry = application.registryId ? await readStore.get('registry', application.registryId) : null;
  const security = await readStore.find('security', 'applicationId', application.applicationId);
  return openedIn([application, registry, security], box);
}
