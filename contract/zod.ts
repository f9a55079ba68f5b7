import { z } from 'zod';
import { validation } from './texts/ru/validation';

/*
 * zod's own messages in Russian: what a form shows and what the API's 422 answers say when a rule
 * has no message of its own (a schema's message always wins). Every contract module takes `z`
 * from here, so the map is in place wherever a contract schema is used. A dozen lines instead of
 * zod's Russian locale, whose texts name types ("ожидалось string, получено undefined").
 */

z.config({ customError: (issue) => validation(issue, issue.input === undefined || issue.input === null) });

export { z };
