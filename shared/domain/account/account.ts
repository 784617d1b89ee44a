import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustNotExist } from '../decisions.ts';

export type Role = 'admin' | 'user';

export interface Account {
  id: string;
  email: string;
  rol: Role;
  image: string;
  is2FAEnabled: boolean;
  createdAt: string;
  passwordHash: string;
}

export type AccountCommand = { type: 'CreateAdmin'; data: Account };

export type AccountEvent = { type: 'AdminCreated'; data: Account };

const LABEL = 'Account';

export const accountAggregate: Aggregate<Account, AccountCommand, AccountEvent> = {
  name: 'account',
  idField: 'id',
  label: LABEL,
  hidden: ['passwordHash'],
  evolve(_state, event) {
    switch (event.type) {
      case 'AdminCreated': return { ...event.data };
      default: return exhaustive(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateAdmin':
        mustNotExist(state, LABEL, 'id');
        return [{ type: 'AdminCreated', data: command.data }];
      default: return exhaustive(command.type);
    }
  },
};
