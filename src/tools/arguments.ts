/**
 * The argument rules of the tool catalogue (catalogue.ts): checks a call's arguments against the very JSON
 * Schema its row lists, so what a client is told and what the MCP server accepts cannot drift apart. Pure.
 * The schemas are flat objects (`type`, `required`, `additionalProperties: false`, properties with `type`,
 * `enum`, `minimum`, `maximum`, `minLength`, `maxLength`); keywords it does not know are left to the
 * library, which still validates everything itself.
 */
import { MemoryError } from '../errors.js';

interface PropertySchema {
  description?: string;
  type?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** An array's items and length (listed for clients; the library checks them). */
  items?: PropertySchema;
  minItems?: number;
  maxItems?: number;
}

/** A tool's input schema, as every surface lists it. */
export interface ToolInputSchema {
  type: 'object';
  properties?: Readonly<Record<string, PropertySchema>>;
  required?: readonly string[];
  additionalProperties?: boolean;
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  boolean: (v) => typeof v === 'boolean',
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** The one-line problem with one argument, or undefined. */
function propertyProblem(key: string, schema: PropertySchema, v: unknown): string | undefined {
  const check = schema.type ? TYPE_CHECKS[schema.type] : undefined;
  if (check && !check(v))
    return `'${key}' must be ${schema.type === 'integer' ? 'an' : 'a'} ${schema.type}, got ${describe(v)}`;
  if (schema.enum && !schema.enum.includes(v))
    return `'${key}' must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (typeof v === 'number') {
    if (schema.minimum !== undefined && v < schema.minimum) return `'${key}' must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && v > schema.maximum) return `'${key}' must be at most ${schema.maximum}`;
  }
  if (typeof v === 'string') {
    if (schema.minLength !== undefined && v.length < schema.minLength)
      return `'${key}' must have at least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && v.length > schema.maxLength)
      return `'${key}' must have at most ${schema.maxLength} characters`;
  }
  return undefined;
}

/**
 * Returns the arguments when they fit `schema`; otherwise throws INVALID_ARGUMENT naming the first
 * problem (an undeclared key, a missing required one, a wrong type or value) on one line.
 * @example checkToolArguments('memory_log', { type: 'object', properties: { limit: { type: 'integer' } } }, { limit: 'abc' }) // throws
 */
export function checkToolArguments(tool: string, schema: ToolInputSchema, args: unknown): Record<string, unknown> {
  const fail = (problem: string, field?: string): never => {
    throw new MemoryError('INVALID_ARGUMENT', `${tool}: ${problem}`, { data: { tool, ...(field ? { field } : {}) } });
  };
  const given = args === undefined ? {} : args;
  if (!TYPE_CHECKS['object']?.(given)) fail(`arguments must be an object, got ${describe(given)}`);
  const record = given as Record<string, unknown>;
  const properties = schema.properties ?? {};
  const declared = Object.keys(properties);
  if (schema.additionalProperties === false) {
    const extra = Object.keys(record).find((k) => !Object.hasOwn(properties, k));
    if (extra !== undefined) {
      const list = declared.length > 0 ? `declared: ${declared.join(', ')}` : 'this tool takes no arguments';
      fail(`unknown argument '${extra.slice(0, 80)}' (${list})`, extra.slice(0, 80));
    }
  }
  for (const key of schema.required ?? [])
    if (!Object.hasOwn(record, key)) fail(`missing required argument '${key}'`, key);
  for (const [key, v] of Object.entries(record)) {
    const p = properties[key];
    const problem = p ? propertyProblem(key, p, v) : undefined;
    if (problem) fail(problem, key);
  }
  return record;
}
