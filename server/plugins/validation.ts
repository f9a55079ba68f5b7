import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONTROL_CHARACTER_MESSAGE, controlCharacterPaths } from '../../contract/common';

/** Fails with one issue per string holding control characters, formatted like any other validation error. */
const noControlCharacters = z.unknown().superRefine((value, ctx) => {
  for (const path of controlCharacterPaths(value))
    ctx.addIssue({ code: 'custom', path, message: CONTROL_CHARACTER_MESSAGE, input: value });
});
const refuseControlCharacters = validatorCompiler({ schema: noControlCharacters, method: '', url: '', httpPart: '' });

/**
 * The zod validator of every route, which first refuses control characters in any string of the
 * body, query and path parameters (one rule for every text field, on both databases: 422).
 */
export const validateInput: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => {
    if (controlCharacterPaths(data).length > 0) return refuseControlCharacters(data);
    return validate(data);
  };
};
