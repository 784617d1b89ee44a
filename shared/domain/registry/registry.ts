import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import { mustFormImageNames } from './registry-url.ts';

export type RegistryType = 'selfHosted' | 'cloud';

/** An image registry applications push to and pull from. */
export interface Registry {
  registryId: string;
  registryName: string;
  username: string;
  /** Sealed by the handler: the log never holds the registry password in clear. */
  password: Sealed;
  registryUrl: string;
  registryType: RegistryType;
  imagePrefix: string | null;
  adminId: string;
  createdAt: string;
}

export type RegistryCommand =
  | { type: 'CreateRegistry'; data: Registry }
  | { type: 'UpdateRegistry'; data: Pick<Registry, 'registryId'> & Partial<Omit<Registry, 'registryId'>> }
  | { type: 'RemoveRegistry'; data: { registryId: string } };

export type RegistryEvent =
  | { type: 'RegistryCreated'; data: Registry }
  | { type: 'RegistryUpdated'; data: Pick<Registry, 'registryId'> & Partial<Registry> }
  | { type: 'RegistryRemoved'; data: { registryId: string } };

const LABEL = 'Registry';

export const registryAggregate: Aggregate<Registry, RegistryCommand, RegistryEvent> = {
  name: 'registry',
  idField: 'registryId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'RegistryCreated': return { ...event.data };
      case 'RegistryUpdated': return state && { ...state, ...event.data };
      case 'RegistryRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateRegistry':
        mustNotExist(state, LABEL, 'registryId');
        mustFormImageNames(command.data.registryUrl, command.data.imagePrefix);
        return [{ type: 'RegistryCreated', data: command.data }];
      case 'UpdateRegistry': {
        const registry = mustExist(state, 'registryId', LABEL);
        const { registryUrl, imagePrefix } = command.data;
        // Checked together: the two start every image name, and its length bound is theirs jointly.
        if (registryUrl !== undefined || imagePrefix !== undefined) {
          mustFormImageNames(registryUrl ?? registry.registryUrl, imagePrefix === undefined ? registry.imagePrefix : imagePrefix);
        }
        return updated('RegistryUpdated', 'registryId', registry.registryId, registry, command.data);
      }
      case 'RemoveRegistry':
        mustExist(state, 'registryId', LABEL);
        return [{ type: 'RegistryRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
