import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import { badRequest } from '../../errors.ts';

/** The one forge app of this Berth (its stream and record id). */
export const FORGE_ID = 'forge';

/** The forge app Berth acts as to list repositories and clone them (configured by an admin). */
export interface ForgeSettings {
  forgeId: typeof FORGE_ID;
  apiUrl: string;
  appId: string;
  installationId: string;
  /** Sealed by the handler: the log never holds the key in clear. */
  privateKey: Sealed;
  savedAt: string;
}

export type ForgeCommand =
  | { type: 'SaveForgeApp'; data: ForgeSettings }
  | { type: 'RemoveForgeApp'; data: { forgeId: typeof FORGE_ID } };

export type ForgeEvent =
  | { type: 'ForgeAppSaved'; data: ForgeSettings }
  | { type: 'ForgeAppRemoved'; data: { forgeId: typeof FORGE_ID } };

function mustBeHttpUrl(value: string): void {
  let url: URL;
  try { url = new URL(value); } catch { throw badRequest('apiUrl', 'must be an http(s) URL'); }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('apiUrl', 'must be an http(s) URL');
}

const SAVED_FIELDS = ['apiUrl', 'appId', 'installationId', 'privateKey'] as const;

/** The settings as the forge port takes them, the private key opened by `open`. */
export const forgeAppOf = (settings: ForgeSettings, open: (sealed: Sealed) => string) => ({
  apiUrl: settings.apiUrl, appId: settings.appId, installationId: settings.installationId, privateKey: open(settings.privateKey),
});

export const forgeAggregate: Aggregate<ForgeSettings, ForgeCommand, ForgeEvent> = {
  name: 'forge',
  idField: 'forgeId',
  label: 'Forge app',
  hidden: ['privateKey'],
  evolve(state, event) {
    switch (event.type) {
      case 'ForgeAppSaved': return { ...event.data };
      case 'ForgeAppRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'SaveForgeApp':
        mustBeHttpUrl(command.data.apiUrl);
        return state && SAVED_FIELDS.every((field) => state[field] === command.data[field]) ? [] : [{ type: 'ForgeAppSaved', data: command.data }];
      // Removing what is not there changes nothing (a second cleanForgeApp appends nothing).
      case 'RemoveForgeApp': return state ? [{ type: 'ForgeAppRemoved', data: command.data }] : [];
      default: return exhaustive(command);
    }
  },
};
