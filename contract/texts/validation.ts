/**
 * A validation issue as zod reports it (its code and the rule's values), said in a customer's language
 * from its structure: the schemas' own messages are the Russian texts, the other languages say the
 * rule from the same values. `missing`: the field was not sent at all.
 */
export interface ValidationIssue {
  code: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  origin?: string;
  format?: string;
  divisor?: number | bigint;
  values?: readonly unknown[];
  keys?: readonly string[];
}

export type SayIssue = (issue: ValidationIssue, missing: boolean) => string;
