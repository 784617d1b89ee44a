// A valid input for any operation, pointing at real records made by the fixtures.
import type { Operation } from '@berth/shared/contract/operation';
import type { Fixtures } from './fixtures.ts';
import { fieldsOf, type FieldBounds } from './schema-walk.ts';

export const ID_FIELD = /(Id|^id)$/;

export async function validInput(operation: Operation, fixtures: Fixtures): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  for (const field of fieldsOf(operation.input)) {
    const special = fixtures.valueFor(field.name);
    if (special !== undefined && (field.required || field.name === 'databaseType')) input[field.name] = special;
    else if (ID_FIELD.test(field.name) && field.type === 'string' && field.required) input[field.name] = await fixtures.idFor(field.name, operation.name);
    else if (field.required) input[field.name] = sample(field);
  }
  if (operation.name === 'deployment.all') input.applicationId = await fixtures.idFor('applicationId', operation.name);
  if (operation.name === 'backup.create') input.dbgammaId = await fixtures.idFor('dbgammaId', operation.name);
  if (operation.name.endsWith('.reload')) input.appName = await fixtures.appNameOf(operation.name, input);
  // Measured or listed by the name of a service Berth holds (a name nothing carries is 404, 403 to a user).
  if (['application.readAppMonitoring', 'container.getContainersByAppNameMatch', 'container.getContainersByAppLabel'].includes(operation.name)) {
    input.appName = await fixtures.appNameOf('application.one', { applicationId: await fixtures.idFor('applicationId', operation.name) });
  }
  if (operation.name === 'auth.login') Object.assign(input, { email: 'admin@berth.test', password: 'correct horse battery' });
  if (operation.name === 'auth.createUser' || operation.name === 'admin.getUserByToken') Object.assign(input, await fixtures.invitation());
  if (operation.name === 'admin.getUserByToken') delete input.id;
  // The admin's own email stays as it is: the suite signs in with it.
  if (operation.name === 'auth.update') input.email = null;
  return input;
}

function sample(field: FieldBounds): unknown {
  if (field.enum) return field.enum[0];
  switch (field.type) {
    case 'string': return field.format === 'email' ? 'someone@berth.test' : 'value'.padEnd(field.minLength ?? 1, 'x');
    case 'number': case 'integer': return field.minimum ?? 1;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': return {};
    default: return null;
  }
}

