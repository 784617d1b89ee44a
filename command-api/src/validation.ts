import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { leastCharactersOf, wholeNumberBoundsOf } from '@berth/shared/contract/schema';
import { DomainError, type Issue } from '@berth/shared/errors';

/** A JSON pointer as the field a user wrote: "/modeOrch/Replicated/Replicas" is "modeOrch.Replicated.Replicas". */
const fieldOf = (path: string) =>
  path.split('/').slice(1).map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~')).join('.') || 'body';

const FORMATS: Record<string, string> = { email: 'an email address', 'date-time': 'an ISO-8601 date-time' };

/** What a list holds, in the plural: "a list of strings". */
const ITEM_KINDS: Record<string, string> = { string: 'strings', number: 'numbers', integer: 'integers', boolean: 'true or false values', object: 'objects' };

/** The bounds of a number as a reader says them: "from 1 to 65535", "of at least 0". */
function bounds({ minimum, maximum }: { minimum?: number; maximum?: number }): string {
  if (minimum !== undefined && maximum !== undefined) return ` from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return ` of at least ${minimum}`;
  if (maximum !== undefined) return ` of at most ${maximum}`;
  return '';
}

/** What a value must be to fit `schema`, as the end of "<field> must be …". */
function expected(schema: TSchema): string {
  const allowed = schema.enum as string[] | undefined;
  // An empty choice (the orchestrator's "its default") reads as a word, not as a blank in the list.
  if (allowed) return `one of ${allowed.filter((value) => value !== '').join(', ')}${allowed.includes('') ? ', or empty' : ''}`;
  const branches = schema.anyOf as TSchema[] | undefined;
  // A choice of kinds that says in its description what it asks for (a size, or 0 for none).
  if (branches && typeof schema.description === 'string') return schema.description;
  if (branches) return branches.map((branch) => (branch.type === 'null' ? 'null' : expected(branch))).join(' or ');
  switch (schema.type) {
    case 'integer': return `an integer${bounds(schema as { minimum?: number; maximum?: number })}`;
    case 'number': return `a number${bounds(schema as { minimum?: number; maximum?: number })}`;
    case 'boolean': return 'true or false';
    case 'array': {
      const items = schema.items as TSchema | undefined;
      const kind = items && !items.anyOf && !items.enum ? ITEM_KINDS[String(items.type)] : undefined;
      return kind ? `a list of ${kind}` : 'a list';
    }
    case 'object': return 'an object';
    case 'null': return 'null';
    case 'string': {
      if (typeof schema.format === 'string') {
        const range = wholeNumberBoundsOf(schema.format);
        if (range) return `a whole number${bounds(range)}`;
        const least = leastCharactersOf(schema.format);
        if (least !== null) return `a string of at least ${least} characters`;
        return FORMATS[schema.format] ?? `a valid ${schema.format}`;
      }
      // A pattern's schema says in its description what the pattern asks for: never the regular expression.
      if (typeof schema.pattern === 'string') return typeof schema.description === 'string' ? schema.description : 'text of the expected form';
      return 'a string';
    }
    default: return 'a valid value';
  }
}

/** "one value", "3 values": how many items a list bound counts. */
const values = (count: number) => (count === 1 ? 'one value' : `${count} values`);

function describe(error: ValueError): string {
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty: return 'is required';
    case ValueErrorType.ObjectAdditionalProperties: return 'is not a known field';
    case ValueErrorType.StringMinLength: {
      const length = Number(error.schema.minLength);
      return length === 1 ? 'must not be empty' : `must be at least ${length} characters long`;
    }
    case ValueErrorType.StringFormat: {
      const least = leastCharactersOf(String(error.schema.format));
      return least === null ? `must be ${expected(error.schema)}` : `must be at least ${least} characters long`;
    }
    case ValueErrorType.StringMaxLength: return `must be at most ${String(error.schema.maxLength)} characters long`;
    // The value is a list already: say the rule it breaks, not the kind it has.
    case ValueErrorType.ArrayMinItems: return `must list at least ${values(Number(error.schema.minItems))}`;
    case ValueErrorType.ArrayMaxItems: return `must list at most ${values(Number(error.schema.maxItems))}`;
    case ValueErrorType.ArrayUniqueItems: return 'must not list the same value twice';
    case ValueErrorType.ObjectMaxProperties: {
      const most = Number(error.schema.maxProperties);
      return `must set ${most === 1 ? 'only one' : `at most ${most}`} of ${Object.keys(error.schema.properties ?? {}).join(', ')}`;
    }
    default: return `must be ${expected(error.schema)}`;
  }
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The errors that say what is wrong. A nullable object or list is a union with null, and TypeBox
 * reports a failed union once, at the union: "healthCheckOrch must be an object or null" for an
 * object whose `Test` is wrong. When the value is of the non-null branch's kind (an object for an
 * object, a list for a list), its own errors name the real fault, further in
 * ("healthCheckOrch.Test must be a list of strings"); a value of neither kind keeps the union's sentence.
 */
function* refined(errors: Iterable<ValueError>): Iterable<ValueError> {
  for (const error of errors) {
    const branches = error.type === ValueErrorType.Union ? error.schema.anyOf as TSchema[] | undefined : undefined;
    const others = branches?.filter((branch) => branch.type !== 'null') ?? [];
    const branch = others[0];
    const fits = branch !== undefined && others.length === branches!.length - 1 && others.length === 1
      && ((branch.type === 'object' && isObject(error.value)) || (branch.type === 'array' && Array.isArray(error.value)));
    if (fits) yield* refined(error.errors[branches!.indexOf(branch)]!);
    else yield error;
  }
}

/** One issue per failed field, each naming it in a sentence: "targetPort must be an integer from 1 to 65535". */
function issuesOf(errors: Iterable<ValueError>): Issue[] {
  const byField = new Map<string, Issue>();
  for (const error of refined(errors)) {
    // Additional properties are reported on the object: name the unknown key itself.
    const field = fieldOf(error.path);
    if (!byField.has(field)) byField.set(field, { message: `${field} ${describe(error)}`, path: field });
  }
  return [...byField.values()];
}

export class ValidationError extends DomainError {
  constructor(issues: Issue[]) {
    super('BAD_REQUEST', issues.map((issue) => issue.message).join('; '), issues);
  }
}

/** Whether a schema declares a default anywhere in it: most inputs have none to apply. */
const declaresDefaults = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null
  && ('default' in schema || Object.values(schema).some(declaresDefaults));

/** Fastify's validator: defaults applied, then the schema checked; never coerces or strips. */
export function compileValidator(schema: TSchema) {
  const checker = TypeCompiler.Compile(schema);
  const defaults = declaresDefaults(schema);
  return (data: unknown) => {
    const value = data === undefined || data === null ? {} : data;
    if (defaults && typeof value === 'object') Value.Default(schema, value);
    if (checker.Check(value)) return { value };
    return { error: new ValidationError(issuesOf(checker.Errors(value))) };
  };
}
