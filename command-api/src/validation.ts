import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { DomainError, type Issue } from '@berth/shared/errors';

const fieldOf = (path: string) => path.replace(/^\//, '').replace(/\//g, '.') || 'body';

function describe(error: ValueError): string {
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty: return 'is required';
    case ValueErrorType.ObjectAdditionalProperties: return 'is not a known field';
    case ValueErrorType.StringMinLength: return `must be at least ${String(error.schema.minLength)} character(s) long`;
    case ValueErrorType.StringFormat: return `must be a valid ${String(error.schema.format)}`;
    case ValueErrorType.Union: {
      const allowed = error.schema.enum as string[] | undefined;
      return allowed ? `must be one of ${allowed.join(', ')}` : 'has the wrong type';
    }
    default: return error.message.replace(/^Expected/, 'must be').toLowerCase();
  }
}

/** One issue per failed field, each naming it. */
function issuesOf(errors: Iterable<ValueError>): Issue[] {
  const byField = new Map<string, Issue>();
  for (const error of errors) {
    // Additional properties are reported on the object: name the unknown key itself.
    const field = fieldOf(error.path);
    if (!byField.has(field)) byField.set(field, { message: `${field}: ${describe(error)}`, path: field });
  }
  return [...byField.values()];
}

export class ValidationError extends DomainError {
  constructor(issues: Issue[]) {
    super('BAD_REQUEST', `Invalid input: ${issues.map((issue) => issue.message).join('; ')}`, issues);
  }
}

/** Fastify's validator: defaults applied, then the schema checked; never coerces or strips. */
export function compileValidator(schema: TSchema) {
  const checker = TypeCompiler.Compile(schema);
  return (data: unknown) => {
    const value = data === undefined || data === null ? {} : data;
    if (typeof value === 'object') Value.Default(schema, value);
    if (checker.Check(value)) return { value };
    return { error: new ValidationError(issuesOf(checker.Errors(value))) };
  };
}
